package extract

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// stripHTML returns the document's <title> and its visible text: one line
// per block element, headings as Markdown "#" lines (so chunking keeps them
// with their text), list items as "- " lines, <pre> kept verbatim, scripts
// and styles dropped.
func stripHTML(src string) (title, text string) {
	z := html.NewTokenizer(strings.NewReader(src))
	var (
		out, line, titleB strings.Builder
		skip, pre         int // depth inside script/style/... and <pre>
		inTitle           bool
	)
	flush := func() {
		s := line.String()
		line.Reset()
		if pre == 0 {
			s = strings.Join(strings.Fields(s), " ")
		}
		if strings.TrimSpace(s) != "" {
			out.WriteString(s)
			out.WriteByte('\n')
		}
	}
	blank := func() {
		flush()
		if o := out.String(); o != "" && !strings.HasSuffix(o, "\n\n") {
			out.WriteByte('\n')
		}
	}
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			flush()
			return strings.Join(strings.Fields(titleB.String()), " "), strings.TrimRight(out.String(), "\n") + "\n"
		case html.TextToken:
			switch {
			case skip > 0:
			case inTitle:
				titleB.Write(z.Text())
			case pre > 0:
				for i, part := range strings.Split(string(z.Text()), "\n") {
					if i > 0 {
						out.WriteString(line.String() + "\n")
						line.Reset()
					}
					line.WriteString(part)
				}
			default:
				line.Write(z.Text()) // whitespace is collapsed by flush
			}
		case html.StartTagToken, html.SelfClosingTagToken, html.EndTagToken:
			name, _ := z.TagName()
			a := atom.Lookup(name)
			start, end := tt == html.StartTagToken, tt == html.EndTagToken
			switch a {
			case atom.Script, atom.Style, atom.Noscript, atom.Template, atom.Svg, atom.Iframe, atom.Object:
				if start {
					skip++
				} else if end {
					skip = max(0, skip-1)
				}
				continue
			case atom.Title:
				inTitle = start
				continue
			}
			if skip > 0 {
				continue
			}
			switch a {
			case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
				blank()
				if !end {
					line.WriteString(strings.Repeat("#", int(name[1]-'0')) + " ")
				}
			case atom.Pre:
				flush()
				if start {
					pre++
				} else if end {
					pre = max(0, pre-1)
				}
			case atom.Br:
				if pre > 0 {
					out.WriteString(line.String() + "\n")
					line.Reset()
				} else {
					flush()
				}
			case atom.Li, atom.Dt:
				flush()
				if !end {
					line.WriteString("- ")
				}
			case atom.P, atom.Div, atom.Section, atom.Article, atom.Header, atom.Footer, atom.Main, atom.Nav,
				atom.Aside, atom.Blockquote, atom.Table, atom.Ul, atom.Ol, atom.Dl, atom.Figure, atom.Form,
				atom.Hr, atom.Body:
				blank()
			case atom.Tr, atom.Dd, atom.Figcaption, atom.Caption, atom.Option:
				flush()
			case atom.Td, atom.Th:
				if !end && strings.TrimSpace(line.String()) != "" {
					line.WriteString(" | ")
				}
			case atom.Span, atom.A, atom.B, atom.I, atom.Em, atom.Strong, atom.Code, atom.Small, atom.Sub, atom.Sup,
				atom.Mark, atom.Abbr, atom.Kbd, atom.Q, atom.S, atom.U, atom.Label, atom.Time, atom.Var, atom.Samp:
				// inline: no break
			default:
				if !end && pre == 0 {
					line.WriteByte(' ')
				}
			}
		}
	}
}
