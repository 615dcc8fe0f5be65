import { type Locale, locales } from "@salelink/contracts/locales";
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { blogSlugs, getBlogPost } from "@/lib/content.ts";
import { pageMetadata } from "@/lib/metadata.ts";
import { pageLocale } from "@/lib/page-locale.ts";

type Props = { params: Promise<{ locale: string; slug: string }> };

/** Unknown slugs give the 404 page. */
export const dynamicParams = false;

export async function generateStaticParams() {
  const all = await Promise.all(
    locales.map(async (locale: Locale) => (await blogSlugs(locale)).map((slug) => ({ locale, slug }))),
  );
  return all.flat();
}

async function load(props: Props) {
  const locale = await pageLocale(props.params);
  const { slug } = await props.params;
  const post = await getBlogPost(locale, slug);
  if (!post) notFound();
  return { locale, post };
}

export async function generateMetadata(props: Props): Promise<Metadata> {
  const { locale, post } = await load(props);
  return pageMetadata({
    locale,
    title: post.title,
    description: post.description,
    path: `/blog/${post.slug}`,
    type: "article",
    publishedTime: post.date,
  });
}

export default async function BlogPostPage(props: Props) {
  const { locale, post } = await load(props);
  const t = await getTranslations("blog");
  const date = new Intl.DateTimeFormat(locale, { dateStyle: "long", timeZone: "UTC" });
  return (
    <main className="container section article">
      <Link href="/blog" className="muted">
        ← {t("back")}
      </Link>
      <article>
        <header>
          <h1>{post.title}</h1>
          <p className="muted">
            {post.author} · <time dateTime={post.date}>{date.format(new Date(post.date))}</time> ·{" "}
            {t("readingTime", { minutes: post.readingMinutes })}
          </p>
        </header>
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: Markdown from our own repository, rendered at build. */}
        <div className="prose" dangerouslySetInnerHTML={{ __html: post.html }} />
      </article>
    </main>
  );
}
