package extract

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/ledongthuc/pdf"
)

// Limits of PDF extraction; variables so tests can shorten them.
var (
	// PDFTimeout bounds the extraction of one PDF: a damaged or hostile file
	// fails with ErrUnreadable instead of stalling an ingest.
	PDFTimeout = 30 * time.Second
	// MaxPDFText bounds the text taken from one PDF (its streams are
	// compressed, so a small file can expand to far more text).
	MaxPDFText = 32 << 20
	// maxPDFPages bounds the pages visited (and so a looping page tree).
	maxPDFPages = 20000
)

// pdfHint is what to do when a PDF cannot be read.
const pdfHint = "convert it to text first, e.g. with pdftotext, and add the .txt"

// errPDFStop ends an extraction from inside the library's callbacks.
type errPDFStop struct{ err error }

// extractPDF reads the text layer of a PDF with github.com/ledongthuc/pdf.
// The library parses with panics and has no limits of its own, so every
// call into it runs under recover, a deadline and a text budget: a bad file
// is a FileError (ErrEncrypted, ErrUnreadable, ErrEmpty, ErrTooLarge), never
// a crash or a hang.
//
// Text is rebuilt from glyph positions rather than taken in content-stream
// order as the library's GetPlainText does: many producers (Ghostscript,
// TeX, cairo) move to the next line or word without starting a new text
// object and without a space glyph, which would glue lines and words
// together. Pages are separated by a blank line.
func extractPDF(name string, data []byte) (doc Doc, err error) {
	fail := func(sentinel error, detail string) (Doc, error) {
		return Doc{}, &FileError{Path: name, Err: sentinel, Detail: detail}
	}
	defer func() {
		if r := recover(); r != nil {
			if stop, ok := r.(errPDFStop); ok {
				sentinel := stop.err
				if sentinel == errPDFTimeout {
					sentinel = ErrUnreadable
				}
				doc, err = fail(sentinel, pdfDetail(stop.err))
				return
			}
			doc, err = fail(ErrUnreadable, fmt.Sprintf("the PDF reader failed: %v; %s", r, pdfHint))
		}
	}()
	rd, err := pdf.NewReader(bytes.NewReader(pdfHeader(data)), int64(len(data)))
	if err != nil {
		if bytes.Contains(data, []byte("/Encrypt")) {
			return fail(ErrEncrypted, pdfDetail(ErrEncrypted))
		}
		return fail(ErrUnreadable, fmt.Sprintf("%s; the file may be damaged or cut short; %s", readerError(err), pdfHint))
	}
	w := newPDFText()
	var pageErr error
	pages := 0
	walkPages(rd.Trailer().Key("Root").Key("Pages"), func(page pdf.Value) {
		pages++
		if err := w.page(page); err != nil && pageErr == nil {
			pageErr = err
		}
	})
	text := strings.TrimSpace(w.String())
	if text == "" {
		switch {
		case pageErr != nil:
			return fail(ErrUnreadable, fmt.Sprintf("no page could be read (%v); %s", pageErr, pdfHint))
		case w.glyphs > 0:
			// Glyphs were drawn but none maps to a character.
			return fail(ErrUnreadable, "its fonts carry no text encoding, so the glyphs cannot be turned into characters; "+pdfHint)
		case pages == 0:
			return fail(ErrUnreadable, "it has no pages; the file may be damaged; "+pdfHint)
		}
		return fail(ErrEmpty, "the PDF has no text layer, it may be scanned pages; run OCR on it first, e.g. with ocrmypdf")
	}
	title := strings.TrimSpace(rd.Trailer().Key("Info").Key("Title").Text())
	if !utf8.ValidString(title) || strings.ContainsRune(title, utf8.RuneError) {
		title = ""
	}
	return Doc{Format: PDF, Title: title, Text: text + "\n"}, nil
}

// readerError is the PDF reader's error as a sentence: it writes "%%EOF"
// where it means the marker %EOF (a format verb escaped twice).
func readerError(err error) string {
	return strings.ReplaceAll(err.Error(), "%%EOF", "%EOF")
}

func pdfDetail(err error) string {
	switch {
	case errors.Is(err, ErrEncrypted):
		return "it needs a password to open; save an unprotected copy (e.g. qpdf --decrypt in.pdf out.pdf) and add that"
	case errors.Is(err, ErrTooLarge):
		return fmt.Sprintf("its text is over %s; split the PDF or convert it to text and add the parts", HumanBytes(int64(MaxPDFText)))
	}
	return fmt.Sprintf("reading it took over %s; the file may be damaged; %s", PDFTimeout, pdfHint)
}

// pdfHeader returns data with a PDF 2.0 header read as 1.7: the reader
// accepts only 1.x headers, and 2.0 changes nothing it relies on for text.
func pdfHeader(data []byte) []byte {
	if !bytes.HasPrefix(data, []byte("%PDF-2.")) {
		return data
	}
	out := bytes.Clone(data)
	copy(out[5:], "1.7")
	return out
}

// walkPages calls fn for each page of the page tree in order, once per
// page, visiting at most maxPDFPages nodes and 32 levels, so a page tree
// with a cycle ends.
func walkPages(node pdf.Value, fn func(pdf.Value)) {
	visited := 0
	seen := map[string]bool{} // pages by their dictionary as written
	var walk func(v pdf.Value, depth int)
	walk = func(v pdf.Value, depth int) {
		if visited >= maxPDFPages || depth > 32 {
			return
		}
		visited++
		if v.Key("Type").Name() == "Page" || v.Key("Kids").Kind() != pdf.Array {
			if key := v.String(); v.Kind() == pdf.Dict && !seen[key] {
				seen[key] = true
				fn(v)
			}
			return
		}
		kids := v.Key("Kids")
		for i := range kids.Len() {
			walk(kids.Index(i), depth+1)
		}
	}
	walk(node, 0)
}

// inherited looks key up in page and its ancestors (at most 32 levels).
func inherited(page pdf.Value, key string) pdf.Value {
	v := page
	for range 32 {
		if v.IsNull() {
			break
		}
		if r := v.Key(key); !r.IsNull() {
			return r
		}
		v = v.Key("Parent")
	}
	return pdf.Value{}
}

// affine is a PDF transformation matrix [a b c d e f].
type affine [6]float64

var identity = affine{1, 0, 0, 1, 0, 0}

// mul returns m × n (apply m, then n).
func (m affine) mul(n affine) affine {
	return affine{
		m[0]*n[0] + m[1]*n[2], m[0]*n[1] + m[1]*n[3],
		m[2]*n[0] + m[3]*n[2], m[2]*n[1] + m[3]*n[3],
		m[4]*n[0] + m[5]*n[2] + n[4], m[4]*n[1] + m[5]*n[3] + n[5],
	}
}

func translate(x, y float64) affine { return affine{1, 0, 0, 1, x, y} }

func affineOf(args []pdf.Value) affine {
	var m affine
	for i := range 6 {
		m[i] = args[i].Float64()
	}
	return m
}

// pdfFont is a font with what positioning needs: how to split a string
// into codes, decode a code, and the width of a code. Widths are read once,
// here: the library re-reads and parses an indirect object on every access.
type pdfFont struct {
	enc     pdf.TextEncoding
	simple  bool              // one-byte codes, widths from FirstChar and Widths
	twoByte bool              // Type0 font with Identity-H/V: 2-byte codes, CID = code
	widths  map[int]float64   // glyph space units (1/1000 em), by code (simple) or CID
	dw      float64           // default width (Type0)
	cache   map[string]string // decoded codes
}

func newPDFFont(v pdf.Value) *pdfFont {
	f := &pdfFont{cache: map[string]string{}, widths: map[int]float64{}}
	pf := pdf.Font{V: v}
	f.enc = pf.Encoder()
	if v.Key("Subtype").Name() != "Type0" {
		f.simple = true
		first, ws := int(v.Key("FirstChar").Int64()), v.Key("Widths")
		for i := range min(ws.Len(), 256) {
			f.widths[first+i] = ws.Index(i).Float64()
		}
		return f
	}
	encName := v.Key("Encoding").Name()
	f.twoByte = encName == "Identity-H" || encName == "Identity-V"
	desc := v.Key("DescendantFonts").Index(0)
	f.dw = 1000
	if dw := desc.Key("DW"); !dw.IsNull() {
		f.dw = dw.Float64()
	}
	w := desc.Key("W")
	for i := 0; i < w.Len() && len(f.widths) < 1<<16; {
		first := int(w.Index(i).Int64())
		next := w.Index(i + 1)
		if next.Kind() == pdf.Array {
			for j := range next.Len() {
				f.widths[first+j] = next.Index(j).Float64()
			}
			i += 2
			continue
		}
		last, width := int(next.Int64()), w.Index(i+2).Float64()
		for c := first; c <= last && c-first < 1<<16; c++ {
			f.widths[c] = width
		}
		i += 3
	}
	return f
}

// codes splits a shown string into character codes.
func (f *pdfFont) codes(raw string) []string {
	n := 1
	if f.twoByte {
		n = 2
	} else if !f.simple {
		// A Type0 font with another CMap: codes cannot be split without
		// parsing it; decode the string as one run.
		return []string{raw}
	}
	out := make([]string, 0, len(raw)/n+1)
	for i := 0; i < len(raw); i += n {
		out = append(out, raw[i:min(i+n, len(raw))])
	}
	return out
}

func (f *pdfFont) decode(code string) string {
	if s, ok := f.cache[code]; ok {
		return s
	}
	s := f.enc.Decode(code)
	f.cache[code] = s
	return s
}

// width is the advance of code in glyph space (1/1000 em).
func (f *pdfFont) width(code string) float64 {
	switch {
	case f.simple:
		return f.widths[int(code[0])]
	case f.twoByte && len(code) == 2:
		if w, ok := f.widths[int(code[0])<<8|int(code[1])]; ok {
			return w
		}
	}
	return f.dw * float64(len(code)) / 2
}

// pdfText accumulates the text of the pages.
type pdfText struct {
	b        strings.Builder
	deadline time.Time
	glyphs   int
	ops      int
	// fonts caches parsed fonts by their dictionary as written (references
	// included), so pages sharing a font parse its ToUnicode map once.
	fonts map[string]*pdfFont

	// The end of the last glyph written, in the coordinates of its line
	// (x along the baseline, y across it), and its font size.
	started      bool
	lastX, lastY float64
	lastSize     float64
	lastRune     rune // 0 at the start, '\n' at the start of a line
	pendingSpace bool
}

func newPDFText() *pdfText {
	return &pdfText{deadline: time.Now().Add(PDFTimeout), fonts: map[string]*pdfFont{}}
}

func (w *pdfText) String() string { return w.b.String() }

// textState is the PDF graphics and text state that placing text needs.
type textState struct {
	ctm, tm, tlm   affine
	font           *pdfFont
	size           float64 // Tfs
	tc, tw, th, tl float64 // char spacing, word spacing, horizontal scale, leading
	rise           float64
}

// page appends one page's text; a page that fails to parse keeps the text
// read before the failure and returns the error.
func (w *pdfText) page(page pdf.Value) (err error) {
	defer func() {
		if r := recover(); r != nil {
			if stop, ok := r.(errPDFStop); ok {
				panic(stop) // the whole document stops
			}
			err = fmt.Errorf("%v", r)
		}
	}()
	w.checkDeadline()
	contents := page.Key("Contents")
	if contents.IsNull() {
		return nil
	}
	if w.started {
		w.newline(true)
		w.started = false
	}
	w.run(contents, inherited(page, "Resources"), identity, 0)
	return nil
}

func (w *pdfText) checkDeadline() {
	if time.Now().After(w.deadline) {
		panic(errPDFStop{errPDFTimeout})
	}
}

// maxFormDepth bounds nested form XObjects (and so a form that draws itself).
const maxFormDepth = 8

// run interprets a content stream (a page's or a form XObject's) drawn
// with ctm, placing the text it shows.
func (w *pdfText) run(contents, resources pdf.Value, ctm affine, depth int) {
	fontRes := resources.Key("Font")
	byName := map[string]*pdfFont{} // this stream's fonts by resource name
	st := textState{ctm: ctm, tm: identity, tlm: identity, th: 1}
	var saved []textState
	var spans []markedContent
	pdf.Interpret(contents, func(stk *pdf.Stack, op string) {
		args := make([]pdf.Value, stk.Len())
		for i := len(args) - 1; i >= 0; i-- {
			args[i] = stk.Pop()
		}
		if w.ops++; w.ops%1024 == 0 {
			w.checkDeadline()
		}
		// Operands are the last values on the stack.
		arg := func(i, n int) pdf.Value { return args[len(args)-n+i] }
		need := func(n int) bool { return len(args) >= n }
		switch op {
		case "q":
			if len(saved) < 1024 {
				saved = append(saved, st)
			}
		case "Q":
			if n := len(saved); n > 0 {
				st, saved = saved[n-1], saved[:n-1]
			}
		case "cm":
			if need(6) {
				st.ctm = affineOf(args[len(args)-6:]).mul(st.ctm)
			}
		case "Do":
			if !need(1) || depth >= maxFormDepth {
				break
			}
			xo := resources.Key("XObject").Key(arg(0, 1).Name())
			if xo.Kind() != pdf.Stream || xo.Key("Subtype").Name() != "Form" {
				break
			}
			m := identity
			if mv := xo.Key("Matrix"); mv.Len() == 6 {
				for i := range 6 {
					m[i] = mv.Index(i).Float64()
				}
			}
			res := xo.Key("Resources")
			if res.IsNull() {
				res = resources
			}
			w.run(xo, res, m.mul(st.ctm), depth+1)
		case "BT":
			st.tm, st.tlm = identity, identity
		case "Tm":
			if need(6) {
				st.tm = affineOf(args[len(args)-6:])
				st.tlm = st.tm
			}
		case "Td", "TD":
			if need(2) {
				tx, ty := arg(0, 2).Float64(), arg(1, 2).Float64()
				if op == "TD" {
					st.tl = -ty
				}
				st.tlm = translate(tx, ty).mul(st.tlm)
				st.tm = st.tlm
			}
		case "T*":
			st.tlm = translate(0, -st.tl).mul(st.tlm)
			st.tm = st.tlm
		case "TL":
			if need(1) {
				st.tl = arg(0, 1).Float64()
			}
		case "Tc":
			if need(1) {
				st.tc = arg(0, 1).Float64()
			}
		case "Tw":
			if need(1) {
				st.tw = arg(0, 1).Float64()
			}
		case "Tz":
			if need(1) {
				st.th = arg(0, 1).Float64() / 100
			}
		case "Ts":
			if need(1) {
				st.rise = arg(0, 1).Float64()
			}
		case "Tf":
			if need(2) {
				name := arg(0, 2).Name()
				f, ok := byName[name]
				if !ok {
					f = w.font(fontRes.Key(name))
					byName[name] = f
				}
				st.font, st.size = f, arg(1, 2).Float64()
			}
		case "BMC", "BDC":
			m := markedContent{}
			if op == "BDC" && need(2) {
				if at := arg(1, 2).Key("ActualText"); at.Kind() == pdf.String {
					m.text, m.has = at.Text(), true
				}
			}
			spans = append(spans, m)
		case "EMC":
			if n := len(spans); n > 0 {
				spans = spans[:n-1]
			}
		case "'", "\"":
			if op == "\"" && need(3) {
				st.tw, st.tc = arg(0, 3).Float64(), arg(1, 3).Float64()
			}
			st.tlm = translate(0, -st.tl).mul(st.tlm)
			st.tm = st.tlm
			fallthrough
		case "Tj":
			if need(1) {
				w.show(&st, arg(0, 1).RawString(), spans)
			}
		case "TJ":
			if !need(1) {
				break
			}
			arr := arg(0, 1)
			for i := range arr.Len() {
				v := arr.Index(i)
				if v.Kind() == pdf.String {
					w.show(&st, v.RawString(), spans)
					continue
				}
				st.tm = translate(-v.Float64()/1000*st.size*st.th, 0).mul(st.tm)
			}
		}
	})
}

// font returns the parsed font of dictionary v.
func (w *pdfText) font(v pdf.Value) *pdfFont {
	key := v.String()
	if f, ok := w.fonts[key]; ok {
		return f
	}
	f := newPDFFont(v)
	w.fonts[key] = f
	return f
}

var errPDFTimeout = errors.New("timed out")

// markedContent is an open marked-content sequence (BMC/BDC … EMC): the
// ActualText its glyphs stand for, if any, and whether it was written.
type markedContent struct {
	text    string
	has     bool
	written bool
}

// show writes the glyphs of one shown string, placed by the text state.
// Inside marked content with an ActualText, that text is written once in
// place of the glyphs.
func (w *pdfText) show(st *textState, raw string, spans []markedContent) {
	if st.font == nil || raw == "" {
		return
	}
	actual := -1
	for i := len(spans) - 1; i >= 0; i-- {
		if spans[i].has {
			actual = i
			break
		}
	}
	for _, code := range st.font.codes(raw) {
		w.glyphs++
		trm := affine{st.size * st.th, 0, 0, st.size, 0, st.rise}.mul(st.tm).mul(st.ctm)
		adv := st.font.width(code) / 1000 * st.size
		text := st.font.decode(code)
		end := translate(adv*st.th, 0).mul(st.tm).mul(st.ctm)
		if actual >= 0 {
			if spans[actual].written {
				text = ""
			} else {
				text, spans[actual].written = spans[actual].text, true
			}
		}
		w.place(trm, end[4], end[5], text)
		spacing := st.tc
		if len(code) == 1 && code[0] == ' ' {
			spacing += st.tw
		}
		st.tm = translate((adv+spacing)*st.th, 0).mul(st.tm)
	}
}

// place writes text for a glyph drawn with rendering matrix trm and ending
// at (endX, endY), starting a new line when the baseline moved and putting
// a space where the gap from the previous glyph is wider than a kern.
func (w *pdfText) place(trm affine, endX, endY float64, text string) {
	// Baseline direction and font size in device space.
	dx, dy := trm[0], trm[1]
	scale := math.Hypot(dx, dy)
	size := math.Hypot(trm[2], trm[3])
	if scale == 0 || size == 0 {
		return // invisible (zero-size) text
	}
	dx, dy = dx/scale, dy/scale
	along := func(x, y float64) float64 { return x*dx + y*dy }
	across := func(x, y float64) float64 { return y*dx - x*dy }
	x, y := along(trm[4], trm[5]), across(trm[4], trm[5])
	if text != "" {
		if w.started {
			lineGap := math.Abs(y - w.lastY)
			switch ref := max(size, w.lastSize); {
			case lineGap > 1.8*ref && lineGap < 40*ref:
				w.newline(true)
			case lineGap > 0.5*ref:
				w.newline(false)
			case x-w.lastX > 0.15*ref || x < w.lastX-ref:
				w.space()
			}
		}
		w.write(text)
	}
	if text != "" || w.started {
		w.started = true
		w.lastX, w.lastY, w.lastSize = along(endX, endY), y, size
	}
}

func (w *pdfText) newline(paragraph bool) {
	w.pendingSpace = false
	w.b.WriteByte('\n')
	if paragraph {
		w.b.WriteByte('\n')
	}
	w.lastRune = '\n'
}

// space puts a space before the next character written on this line.
func (w *pdfText) space() {
	if w.lastRune != '\n' && w.lastRune != 0 {
		w.pendingSpace = true
	}
}

// write appends decoded text: ligatures spelled out (so "ﬁnd" is found
// as "find"), control characters and unmapped glyphs dropped, runs of
// spaces collapsed.
func (w *pdfText) write(text string) {
	for _, r := range text {
		switch {
		case r == utf8.RuneError || r == 0xAD: // unmapped glyph, soft hyphen
			continue
		case unicode.IsSpace(r):
			w.space()
			continue
		case unicode.IsControl(r):
			continue
		}
		if w.pendingSpace {
			w.b.WriteByte(' ')
			w.pendingSpace = false
		}
		if lig, ok := ligatures[r]; ok {
			w.b.WriteString(lig)
		} else {
			w.b.WriteRune(r)
		}
		w.lastRune = r
	}
	if w.b.Len() > MaxPDFText {
		panic(errPDFStop{ErrTooLarge})
	}
}

var ligatures = map[rune]string{
	'\uFB00': "ff", '\uFB01': "fi", '\uFB02': "fl", '\uFB03': "ffi", '\uFB04': "ffl", '\uFB05': "st", '\uFB06': "st",
}
