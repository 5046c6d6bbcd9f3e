const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ENTITIES[character]);
}

/** A small self-contained HTML page (no external assets) for the sign-in screens. */
export function htmlPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
  body { font-family: system-ui, sans-serif; max-width: 34rem; margin: 4rem auto; padding: 0 1rem; color: #1d2433; line-height: 1.5; }
  h1 { font-size: 1.5rem; }
  .note { background: #fff7e0; border: 1px solid #e8c66a; padding: .75rem 1rem; border-radius: .4rem; }
  .error { background: #fdecec; border: 1px solid #e08a8a; padding: .75rem 1rem; border-radius: .4rem; }
  label { display: block; margin: 1rem 0 .25rem; font-weight: 600; }
  input[type=email] { width: 100%; padding: .5rem; font-size: 1rem; box-sizing: border-box; }
  button, .button { display: inline-block; margin-top: 1rem; padding: .6rem 1.2rem; font-size: 1rem; background: #1f5fbf; color: #fff; border: 0; border-radius: .4rem; text-decoration: none; cursor: pointer; }
  code { background: #f1f3f7; padding: 0 .25rem; border-radius: .2rem; }
</style>
</head>
<body>
${body}
</body>
</html>
`;
}
