// Secrets (passwords, API keys, tokens) as they may appear in an echo of the request, and how they are taken out of a
// text: shared by the Data API's redaction (redact.ts) and the OData client. Nothing here knows either API.
//
// A scan with indexOf rather than one regular expression of every form: a regular expression holds no literal of
// 32 K characters or more (a long password or API key made every redaction throw), and a scan never throws, whatever
// the secrets' length, number or content, in time linear in the text for each form.

const REDACTED = "[redacted]";

/**
 * A secret form shorter than this is replaced only as a whole word (no letter or digit on either side), so that a
 * password "0" leaves "401" alone and "a" the word "layout"; a longer one wherever it is (a token
 * in "Bearer%20<token>" too).
 */
const SHORT = 12;

/** Each secret as it may appear in an echo (as is, JSON-escaped, percent-encoded), distinct, longest first. */
export type SecretForms = readonly string[];

/** The forms of `secrets` that `scrub` takes out. */
export function secretForms(secrets: readonly string[]): SecretForms {
  const forms = new Set(secrets.flatMap((s) => [s, JSON.stringify(s).slice(1, -1), percentEncoded(s)]));
  forms.delete("");
  return [...forms].sort((a, b) => b.length - a.length);
}

/** `secret` percent-encoded; "" for one that holds a lone surrogate, which has no UTF-8 form (nor one on the wire). */
function percentEncoded(secret: string): string {
  try {
    return encodeURIComponent(secret);
  } catch {
    return "";
  }
}

/**
 * `text` with every occurrence of every form replaced: at each place the leftmost occurrence of any form, the longest
 * of those that start there (as an alternation of the forms, longest first, would match).
 */
export function scrub(text: string, forms: SecretForms): string {
  // Where each form next occurs at or after `done` (-1: nowhere); each form's search only moves forward.
  const next = forms.map((form) => occurrence(text, form, 0));
  let out = "";
  for (let done = 0; ; ) {
    let first = -1;
    for (let i = 0; i < forms.length; i++) {
      if (next[i]! !== -1 && next[i]! < done) next[i] = occurrence(text, forms[i]!, done);
      if (next[i]! !== -1 && (first === -1 || next[i]! < next[first]!)) first = i;
    }
    if (first === -1) return done ? out + text.slice(done) : text;
    out += text.slice(done, next[first]) + REDACTED;
    done = next[first]! + forms[first]!.length;
  }
}

const WORD_BEFORE = /[\p{L}\p{N}]$/u;
const WORD_AFTER = /^[\p{L}\p{N}]/u;

/** The first place at or after `from` where `form` occurs (a short one as a whole word), or -1. */
function occurrence(text: string, form: string, from: number): number {
  for (let at = text.indexOf(form, from); at !== -1; at = text.indexOf(form, at + 1)) {
    const end = at + form.length;
    // Two code units either side: a letter outside the BMP is a surrogate pair.
    if (form.length >= SHORT || !(WORD_BEFORE.test(text.slice(Math.max(0, at - 2), at)) || WORD_AFTER.test(text.slice(end, end + 2)))) return at;
  }
  return -1;
}
