import { defaultLocale } from "@salelink/contracts/locales";
import { blogSlugs, legalSlugs } from "./content.ts";

type Matcher = (segments: string[]) => boolean | Promise<boolean>;

const exact = (path: string): Matcher => {
  const want = path.split("/").filter(Boolean);
  return (segments) => segments.length === want.length && want.every((s, i) => s === segments[i]);
};

const withSlug =
  (prefix: string, known: () => Promise<string[]>): Matcher =>
  async (segments) =>
    segments.length === 2 && segments[0] === prefix && (await known()).includes(segments[1] ?? "");

/**
 * Every page the web app serves, with its parameter validation. Used where a 404 must be decided
 * before rendering (crawlers get a bare status); pages validate the same parameters themselves.
 */
const routes: Matcher[] = [
  exact("/"),
  exact("/affiliate"),
  exact("/blog"),
  exact("/maintenance"),
  exact("/signin"),
  exact("/signup"),
  exact("/forgot-password"),
  exact("/reset-password"),
  exact("/verify-email"),
  exact("/account"),
  exact("/account/settings"),
  exact("/account/profiles"),
  exact("/account/onboarding"),
  exact("/dev/mail"),
  exact("/robots.txt"),
  exact("/sitemap.xml"),
  withSlug("blog", () => blogSlugs(defaultLocale)),
  withSlug("legal", () => legalSlugs(defaultLocale)),
];

export async function isKnownRoute(pathname: string): Promise<boolean> {
  const segments = pathname.split("/").filter(Boolean);
  for (const match of routes) if (await match(segments)) return true;
  return false;
}
