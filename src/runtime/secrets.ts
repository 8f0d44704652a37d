// Secrets (passwords, API keys, tokens) as they may appear in an echo of the request, and how they are taken out of a
// text: shared by the Data API's redaction (redact.ts) and the OData client. Nothing here knows either API.

const REDACTED = "[redacted]";

/**
 * A secret form shorter than this is replaced only as a whole word (no letter or digit on either side), so that a
 * password "0" leaves "401" alone and "a" the word "layout"; a longer one wherever it is (a token
 * in "Bearer%20<token>" too).
 */
const SHORT = 12;

/**
 * Each secret as it may appear in an echo (as is, JSON-escaped, percent-encoded), longest first, as one pattern (one
 * that matches nothing when there is no secret).
 */
export function secretPattern(secrets: readonly string[]): RegExp {
  const forms = [...new Set(secrets.flatMap((s) => [s, JSON.stringify(s).slice(1, -1), encodeURIComponent(s)]))].filter(Boolean);
  const alternatives = forms
    .sort((a, b) => b.length - a.length)
    .map((form) => {
      const exact = form.replace(/[\\^$.*+?()[\]{}|]/g, "\\$&");
      return form.length < SHORT ? `(?<![\\p{L}\\p{N}])${exact}(?![\\p{L}\\p{N}])` : exact;
    });
  return new RegExp(alternatives.join("|") || "(?!)", "gu");
}

/** `text` with every occurrence of every secret form replaced. */
export const scrub = (text: string, pattern: RegExp): string => text.replace(pattern, REDACTED);

