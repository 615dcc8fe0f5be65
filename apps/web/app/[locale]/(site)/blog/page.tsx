import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { listBlogPosts } from "@/lib/content.ts";
import { pageMetadata } from "@/lib/metadata.ts";
import { pageLocale } from "@/lib/page-locale.ts";

type Props = { params: Promise<{ locale: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const locale = await pageLocale(params);
  const t = await getTranslations({ locale, namespace: "blog" });
  return pageMetadata({ locale, title: t("metaTitle"), description: t("metaDescription"), path: "/blog" });
}

export default async function BlogPage({ params }: Props) {
  const locale = await pageLocale(params);
  const t = await getTranslations("blog");
  const posts = await listBlogPosts(locale);
  const date = new Intl.DateTimeFormat(locale, { dateStyle: "long", timeZone: "UTC" });
  return (
    <main className="container section">
      <h1>{t("title")}</h1>
      <p className="lead">{t("lead")}</p>
      {posts.length === 0 ? (
        <p className="empty">{t("empty")}</p>
      ) : (
        <div className="grid-3 post-cards">
          {posts.map((post) => (
            <article key={post.slug} className="card post-card">
              <p className="muted">
                <time dateTime={post.date}>{date.format(new Date(post.date))}</time> ·{" "}
                {t("readingTime", { minutes: post.readingMinutes })}
              </p>
              <h2>
                <Link href={`/blog/${post.slug}`}>{post.title}</Link>
              </h2>
              <p>{post.description}</p>
              <Link
                href={`/blog/${post.slug}`}
                className="read-more"
                aria-label={t("readAria", { title: post.title })}
              >
                {t("read")} →
              </Link>
            </article>
          ))}
        </div>
      )}
    </main>
  );
}
