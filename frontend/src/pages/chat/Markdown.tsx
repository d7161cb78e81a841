import { memo, useState, type ReactNode } from 'react';
import ReactMarkdown, { defaultUrlTransform, type Components, type UrlTransform } from 'react-markdown';
import rehypeHighlight from 'rehype-highlight';
import remarkGfm from 'remark-gfm';
import { ExternalLink, externalURL, openExternal } from '../../components/ExternalLink';

/**
 * The highlighter is rehype-highlight's transform, made once. Its attacher
 * builds a highlight.js of its own (37 grammars registered, each compiled on
 * first use), and react-markdown attaches the plugins again on every render:
 * each render of an answer built them all again, and with detect on compiled
 * every grammar to guess a block's language. In the window that churn took a
 * third of each turn's time and kept the web process 15 MB larger after 50
 * turns (BENCHMARKS.md). Made on the first answer shown, not when the window
 * starts.
 *
 * Guessing the language of a block that names none runs every grammar over
 * it (about 70 ms for 240 lines, where highlighting it as Python takes 2):
 * while an answer streams, and is parsed again every frame, only blocks that
 * name their language are highlighted; the guess is made once it is complete.
 */
let guessing: ReturnType<typeof rehypeHighlight> | undefined;
let named: ReturnType<typeof rehypeHighlight> | undefined;
const remarkPlugins = [remarkGfm];

/** HastNode is the little of a hast node namedLanguage reads. */
interface HastNode { type: string; tagName?: string; properties?: Record<string, unknown>; children?: HastNode[] }

/** markNamed puts the language a fence names on its code as data-lang (highlight.js adds its guess to the class). */
function markNamed(node: HastNode): void {
  if (node.type === 'element' && node.tagName === 'code') {
    const cls = node.properties?.className;
    const lang = Array.isArray(cls) ? cls.map(String).find((c) => c.startsWith('language-'))?.slice('language-'.length) : undefined;
    if (lang) node.properties = { ...node.properties, dataLang: lang };
  }
  node.children?.forEach(markNamed);
}

/**
 * namedLanguage runs before the highlighter: a code block's bar shows the language its fence
 * names, never highlight.js's guess (which takes SQL for bash).
 */
const namedLanguage = () => markNamed;
const rehypePlugins = [namedLanguage, () => (guessing ??= rehypeHighlight({ detect: true }))];
const streamingRehypePlugins = [namedLanguage, () => (named ??= rehypeHighlight({ detect: false }))];

/** textOf flattens rendered children back to the code's text (for Copy). */
function textOf(node: ReactNode): string {
  if (typeof node === 'string' || typeof node === 'number') return String(node);
  if (Array.isArray(node)) return node.map(textOf).join('');
  if (node && typeof node === 'object' && 'props' in node) {
    return textOf((node as { props: { children?: ReactNode } }).props.children);
  }
  return '';
}

/** languageOf is the language a fenced block names (its code's data-lang, see namedLanguage); '' when none. */
export function languageOf(node: ReactNode): string {
  const code = Array.isArray(node) ? node.find((n) => n && typeof n === 'object') : node;
  const lang = code && typeof code === 'object' && 'props' in code ? (code.props as Record<string, unknown>)['data-lang'] : '';
  return typeof lang === 'string' ? lang : '';
}

/**
 * CodeBlock is a fenced block: a bar with its language and Copy above the code (not over its
 * first line). The code is a labelled region that takes the focus, so a keyboard can scroll a
 * long line sideways.
 */
function CodeBlock({ children }: { children?: ReactNode }) {
  const [copied, setCopied] = useState(false);
  const copy = () => {
    void navigator.clipboard?.writeText(textOf(children)).then(() => {
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    });
  };
  const lang = languageOf(children);
  return (
    <div className="code-block">
      <div className="code-head">
        <span className="code-lang">{lang}</span>
        <button type="button" className="copy small" onClick={copy} aria-label="Copy code">{copied ? 'Copied' : 'Copy'}</button>
      </div>
      <pre tabIndex={0} role="region" aria-label={lang ? `Code, ${lang}` : 'Code'}>{children}</pre>
    </div>
  );
}

/** isInlineImage: an image carried in the text itself (data:image/...), which loads nothing. */
function isInlineImage(src: string | undefined): src is string {
  return !!src && /^data:image\//i.test(src);
}

/** urlTransform keeps data:image/ URLs on images (react-markdown's default drops data:) and otherwise applies the default's safe protocols. */
const urlTransform: UrlTransform = (url, key, node) =>
  key === 'src' && node.tagName === 'img' && isInlineImage(url) ? url : defaultUrlTransform(url);

/**
 * ImageOrPlaceholder shows an inline (data:) image; any other image becomes a
 * placeholder. Loading a remote image would tell its host that, and what, the
 * model wrote (the URL can carry the chat's contents): an exfiltration channel
 * once a tool result injects instructions. The window's Content-Security-Policy
 * refuses such loads too; the placeholder's button opens the image in the
 * system browser, on the user's click only.
 */
function ImageOrPlaceholder({ src, alt, title }: { src?: string; alt?: string; title?: string }) {
  if (isInlineImage(src)) return <img src={src} alt={alt ?? ''} title={title} />;
  const u = externalURL(src);
  return (
    <span className="remote-image" data-testid="remote-image" title={src}>
      <span className="muted">Image not loaded{alt ? `: ${alt}` : ''}</span>
      {u && u.protocol !== 'mailto:' && (
        <button
          type="button"
          className="small"
          onClick={(e) => {
            e.preventDefault();
            e.stopPropagation(); // inside a link, only the image opens
            openExternal(src);
          }}
        >
          Open image from {u.host}
        </button>
      )}
    </span>
  );
}

const components: Components = {
  pre: ({ children }) => <CodeBlock>{children}</CodeBlock>,
  a: ({ href, children }) => <ExternalLink href={href}>{children}</ExternalLink>,
  img: ({ src, alt, title }) => <ImageOrPlaceholder src={typeof src === 'string' ? src : undefined} alt={alt} title={title} />,
};

/**
 * Markdown renders a model's answer: GFM (tables, task lists, strikethrough),
 * highlighted code with Copy. Raw HTML is not rendered; remote images are
 * placeholders and links open in the system browser on click (see
 * ImageOrPlaceholder and ExternalLink): nothing in an answer makes the window
 * load or navigate anywhere by itself. streaming: the answer is still coming,
 * so a code block that names no language stays plain until it is complete.
 */
export const Markdown = memo(function Markdown({ text, streaming = false }: { text: string; streaming?: boolean }) {
  if (!text) return null; // a message that is only tool calls, or not begun
  return (
    <div className="markdown">
      <ReactMarkdown
        remarkPlugins={remarkPlugins}
        rehypePlugins={streaming ? streamingRehypePlugins : rehypePlugins}
        components={components}
        urlTransform={urlTransform}
      >
        {text}
      </ReactMarkdown>
    </div>
  );
});
