import type { Locale } from "@salelink/contracts";

/** One e-mail's texts, already filled in: `html` strings escaped, `text` strings plain. */
export interface LayoutContent {
  locale: Locale;
  product: string;
  subject: string;
  /** The line mail clients show after the subject in the inbox list. */
  preview: string;
  heading: string;
  greeting: string;
  body: string[];
  action?: { label: string; url: string; hint: string };
  notes: string[];
  signature: string;
  footer: string;
}

// The web app's palette (apps/web globals), so the e-mail looks like the product it comes from.
const color = {
  primary: "#4f46e5",
  onPrimary: "#ffffff",
  text: "#161a21",
  muted: "#5b6472",
  page: "#f6f7f9",
  card: "#ffffff",
  border: "#e3e6eb",
};
const font = "-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";
const paragraph = `margin:0 0 16px 0;font-family:${font};font-size:16px;line-height:24px;color:${color.text};`;
const small = `margin:0;font-family:${font};font-size:13px;line-height:20px;color:${color.muted};`;

/**
 * Tables and inline styles only: many mail clients (Outlook, Gmail) drop <style> blocks, flexbox
 * and external CSS. Every value in `content` must already be HTML-escaped.
 */
export function htmlLayout(content: LayoutContent): string {
  const button = content.action
    ? `<table role="presentation" cellspacing="0" cellpadding="0" border="0" style="margin:8px 0 24px 0;">
<tr><td bgcolor="${color.primary}" style="border-radius:6px;background-color:${color.primary};">
<a href="${content.action.url}" target="_blank" style="display:inline-block;padding:12px 24px;font-family:${font};font-size:16px;font-weight:600;line-height:24px;color:${color.onPrimary};text-decoration:none;border-radius:6px;">${content.action.label}</a>
</td></tr>
</table>`
    : "";
  const fallback = content.action
    ? `<tr><td style="padding:24px 0 0 0;border-top:1px solid ${color.border};">
<p style="${small}">${content.action.hint}</p>
<p style="${small}word-break:break-all;"><a href="${content.action.url}" target="_blank" style="color:${color.primary};">${content.action.url}</a></p>
</td></tr>`
    : "";
  const paragraphs = (texts: string[]) => texts.map((t) => `<p style="${paragraph}">${t}</p>`).join("\n");
  return `<!doctype html>
<html lang="${content.locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>${content.subject}</title>
</head>
<body style="margin:0;padding:0;background-color:${color.page};">
<div style="display:none;max-height:0;overflow:hidden;opacity:0;mso-hide:all;">${content.preview}</div>
<table role="presentation" width="100%" cellspacing="0" cellpadding="0" border="0" style="background-color:${color.page};">
<tr><td align="center" style="padding:24px 12px;">
<table role="presentation" width="100%" cellspacing="0" cellpadding="0" border="0" style="max-width:560px;">
<tr><td style="padding:0 0 16px 4px;font-family:${font};font-size:20px;font-weight:700;line-height:28px;color:${color.primary};">${content.product}</td></tr>
<tr><td style="padding:32px;background-color:${color.card};border:1px solid ${color.border};border-radius:8px;">
<table role="presentation" width="100%" cellspacing="0" cellpadding="0" border="0">
<tr><td>
<h1 style="margin:0 0 16px 0;font-family:${font};font-size:22px;font-weight:700;line-height:30px;color:${color.text};">${content.heading}</h1>
${paragraphs([content.greeting, ...content.body])}
${button}
${paragraphs([...content.notes, content.signature])}
</td></tr>
${fallback}
</table>
</td></tr>
<tr><td style="padding:16px 8px;text-align:center;">
<p style="${small}font-size:12px;line-height:18px;">${content.footer}</p>
</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`;
}

/** The plain-text part: for clients that show no HTML, and for spam filters that want both. */
export function textLayout(content: LayoutContent): string {
  const blocks = [
    content.heading,
    content.greeting,
    ...content.body,
    ...(content.action ? [`${content.action.label}\n${content.action.url}`] : []),
    ...content.notes,
    content.signature,
    `-- \n${content.footer}`,
  ];
  return `${blocks.join("\n\n")}\n`;
}
