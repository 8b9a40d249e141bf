// Lit templates as HTML text, in Node: enough to compare two renderings of the same reply.
// Whitespace runs outside code blocks are collapsed (the browser shows them as one space).
import { nothing, type TemplateResult } from 'lit';

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function value(part: unknown, pre: boolean): string {
  if (part === nothing || part === undefined || part === null) return '';
  if (Array.isArray(part)) return part.map((each) => value(each, pre)).join('');
  if (typeof part === 'object' && 'strings' in part) return serialize(part as TemplateResult);
  const text = escape(String(part as string | number));
  return pre ? text : text.replace(/\s+/g, ' ');
}

export function serialize(template: TemplateResult): string {
  return template.strings.reduce((out, string, at) => {
    const rest = at < template.values.length ? value(template.values[at], /<pre><code>$/.test(string)) : '';
    return out + string + rest;
  }, '');
}
