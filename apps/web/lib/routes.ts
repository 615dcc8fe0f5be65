import { handleSchema, linkTokenSchema } from "@salelink/contracts/catalogue";
import { orderTokenSchema } from "@salelink/contracts/checkout";
import { defaultLocale } from "@salelink/contracts/locales";
import { z } from "zod";
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

/** A fixed prefix followed by one parameter that must pass `valid`. */
const withParam =
  (prefix: string, valid: (value: string) => boolean): Matcher =>
  (segments) => {
    const want = prefix.split("/").filter(Boolean);
    const value = segments[want.length];
    return (
      segments.length === want.length + 1 &&
      want.every((s, i) => s === segments[i]) &&
      value !== undefined &&
      valid(value)
    );
  };

const isLinkToken = (value: string) => linkTokenSchema.safeParse(value).success;
const isOrderToken = (value: string) => orderTokenSchema.safeParse(value).success;
/** A creator page is reached by profile id (the spec's `/c/{id}`) or by handle. */
const isCreatorRef = (value: string) =>
  z.uuid().safeParse(value).success || handleSchema.safeParse(value).success;

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
  exact("/account/links"),
  exact("/account/portfolio"),
  exact("/account/promo-codes"),
  exact("/account/wallet"),
  exact("/account/affiliates"),
  exact("/admin"),
  exact("/admin/payouts"),
  exact("/admin/reports"),
  exact("/admin/accounts"),
  withParam("/admin/accounts", (value) => z.uuid().safeParse(value).success),
  exact("/admin/orders"),
  exact("/admin/identity"),
  exact("/admin/maintenance"),
  exact("/admin/audit"),
  exact("/payment/success"),
  exact("/payment/error"),
  exact("/app/payment/success"),
  exact("/app/payment/error"),
  exact("/account/onboarding"),
  exact("/dev/mail"),
  exact("/robots.txt"),
  exact("/sitemap.xml"),
  withParam("/v", isLinkToken),
  withParam("/app/links", isLinkToken),
  withParam("/checkout", isLinkToken),
  withParam("/app/payment", isLinkToken),
  withParam("/order", isOrderToken),
  withParam("/app/links/order", isOrderToken),
  withParam("/c", isCreatorRef),
  withParam("/app/creator", isCreatorRef),
  withParam("/identity/sandbox", (value) => z.uuid().safeParse(value).success),
  withSlug("blog", () => blogSlugs(defaultLocale)),
  withSlug("legal", () => legalSlugs(defaultLocale)),
];

export async function isKnownRoute(pathname: string): Promise<boolean> {
  const segments = pathname.split("/").filter(Boolean);
  for (const match of routes) if (await match(segments)) return true;
  return false;
}
