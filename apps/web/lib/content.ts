import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { Locale } from "@salelink/contracts/locales";
import matter from "gray-matter";
import { marked } from "marked";
import { z } from "zod";

const contentRoot = path.join(process.cwd(), "content");
const slugPattern = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

const blogFrontmatter = z.object({
  title: z.string().min(1),
  description: z.string().min(1).max(200),
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  author: z.string().min(1),
  tags: z.array(z.string()).default([]),
});
const legalFrontmatter = z.object({
  title: z.string().min(1),
  description: z.string().min(1).max(200),
  updated: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
});

export type BlogPostMeta = z.infer<typeof blogFrontmatter> & { slug: string; readingMinutes: number };
export type BlogPost = BlogPostMeta & { html: string };
export type LegalPage = z.infer<typeof legalFrontmatter> & { slug: string; html: string };

export const isSlug = (value: string): boolean => slugPattern.test(value) && value.length <= 120;

async function readMarkdown(kind: "blog" | "legal", locale: Locale, slug: string) {
  if (!isSlug(slug)) return null;
  try {
    const raw = await readFile(path.join(contentRoot, kind, locale, `${slug}.md`), "utf8");
    return matter(raw);
  } catch {
    return null;
  }
}

async function listSlugs(kind: "blog" | "legal", locale: Locale): Promise<string[]> {
  try {
    const files = await readdir(path.join(contentRoot, kind, locale));
    return files
      .filter((f) => f.endsWith(".md"))
      .map((f) => f.slice(0, -3))
      .filter(isSlug);
  } catch {
    return [];
  }
}

const readingMinutes = (text: string) => Math.max(1, Math.round(text.split(/\s+/).length / 220));

export async function getBlogPost(locale: Locale, slug: string): Promise<BlogPost | null> {
  const file = await readMarkdown("blog", locale, slug);
  if (!file) return null;
  const meta = blogFrontmatter.parse(file.data);
  // Posts are our own files from the repository, rendered at build time.
  const html = await marked.parse(file.content);
  return { ...meta, slug, readingMinutes: readingMinutes(file.content), html };
}

export async function listBlogPosts(locale: Locale): Promise<BlogPostMeta[]> {
  const posts = await Promise.all(
    (await listSlugs("blog", locale)).map(async (slug) => {
      const post = await getBlogPost(locale, slug);
      if (!post) return null;
      const { html: _html, ...meta } = post;
      return meta;
    }),
  );
  return posts.filter((p): p is BlogPostMeta => p !== null).sort((a, b) => b.date.localeCompare(a.date));
}

export const blogSlugs = (locale: Locale) => listSlugs("blog", locale);
export const legalSlugs = (locale: Locale) => listSlugs("legal", locale);

export async function getLegalPage(locale: Locale, slug: string): Promise<LegalPage | null> {
  const file = await readMarkdown("legal", locale, slug);
  if (!file) return null;
  return { ...legalFrontmatter.parse(file.data), slug, html: await marked.parse(file.content) };
}
