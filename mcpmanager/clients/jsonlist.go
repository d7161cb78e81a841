package clients

import (
	"bytes"

	"github.com/switchboard-app/switchboard/mcpmanager/config"
)

// jsonList is the members of a JSON object (or the elements of an array)
// as spans of the file, for the two edits connect and disconnect make:
// cut one out, and put one in. A cut takes the item, its comma and what
// follows it on its own line (a comment); comments on lines of their own
// stay where they are, and the slot it returns puts the item back in the
// same bytes.
type jsonList struct {
	data        []byte
	open, close int // the offsets of the opening and of the closing bracket
	items       []jsonItem
}

// jsonItem is one member, from its key to its value's end (an element:
// key and val are its start).
type jsonItem struct{ key, val, end int }

func objectList(data []byte, obj *config.JSONValue) jsonList {
	l := jsonList{data: data, open: obj.Off, close: obj.End - 1}
	for _, m := range obj.Members {
		l.items = append(l.items, jsonItem{key: m.KeyOff, val: m.Value.Off, end: m.Value.End})
	}
	return l
}

func arrayList(data []byte, arr *config.JSONValue) jsonList {
	l := jsonList{data: data, open: arr.Off, close: arr.End - 1}
	for _, e := range arr.Elems {
		l.items = append(l.items, jsonItem{key: e.Off, val: e.Off, end: e.End})
	}
	return l
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// comma is the offset of item i's comma, -1 when it has none.
func (l jsonList) comma(i int) int {
	q := l.items[i].end
	for q < l.close && isSpace(l.data[q]) {
		q++
	}
	if q < l.close && l.data[q] == ',' {
		return q
	}
	return -1
}

// tail is where item i's tail ends, and its trail: after its comma (or
// its value) a comment on the same line, with the spaces before it.
func (l jsonList) tail(i int) (end int, trail string) {
	from := l.tailFrom(i)
	p := from
	for p < l.close && (l.data[p] == ' ' || l.data[p] == '\t') {
		p++
	}
	switch {
	case bytes.HasPrefix(l.data[p:], []byte("//")):
		e := bytes.IndexByte(l.data[p:l.close], '\n') // a line comment before the bracket ends in a newline
		if e < 0 {
			e = l.close - p
		}
		p += e
		for p > from && l.data[p-1] == '\r' {
			p--
		}
	case bytes.HasPrefix(l.data[p:], []byte("/*")):
		e := bytes.Index(l.data[p+2:], []byte("*/"))
		if e < 0 || bytes.IndexByte(l.data[p:p+2+e], '\n') >= 0 {
			return from, "" // a comment over several lines is the next line's
		}
		p += 2 + e + 2
	default:
		return from, ""
	}
	return p, string(l.data[from:p])
}

// lead is the whitespace before item i's key, back to the token or
// comment before it.
func (l jsonList) lead(i int) int {
	s := l.items[i].key
	for s > l.open+1 && isSpace(l.data[s-1]) {
		s--
	}
	return s
}

// cut returns the data without item i, and its slot: the layout that
// puts it back (Before is the caller's to fill in).
func (l jsonList) cut(i int) ([]byte, Slot) {
	it, d := l.items[i], l.data
	ls := l.lead(i)
	own := bytes.IndexByte(d[ls:it.key], '\n') >= 0
	comma := l.comma(i)
	tEnd, trail := l.tail(i)
	from := ls
	if !own && comma >= 0 {
		// Inline: the space before it stays, the one after its comma goes.
		from = it.key
		if trail == "" {
			q := tEnd
			for q < l.close && (d[q] == ' ' || d[q] == '\t') {
				q++
			}
			trail, tEnd = string(d[tEnd:q]), q
		}
	}
	s := Slot{Lead: string(d[from:it.key]), Key: string(d[it.key:it.val]), Trail: trail, Comma: comma >= 0 && i == len(l.items)-1}
	cuts := [][2]int{{from, tEnd}}
	if comma < 0 && i > 0 {
		if pc := l.comma(i - 1); pc >= 0 {
			cuts = [][2]int{{pc, pc + 1}, {from, tEnd}} // the comma that joined it
		}
	}
	if i+1 < len(l.items) {
		s.Gap = l.items[i+1].key - tEnd
	} else {
		s.Gap = l.close - tEnd
	}
	out, removed := d, 0
	for j := len(cuts) - 1; j >= 0; j-- {
		out = splice(out, cuts[j][0], cuts[j][1], "")
		removed += cuts[j][1] - cuts[j][0]
	}
	if inner := out[l.open+1 : l.close-removed]; len(inner) > 0 && len(bytes.TrimSpace(inner)) == 0 {
		// The only item: the brackets close again, as add opened them.
		s.Close, s.Gap = string(inner), 0
		out = splice(out, l.open+1, l.close-removed, "")
	}
	return out, s
}

// tailFrom is where item i's trail starts: after its comma, or its value.
func (l jsonList) tailFrom(i int) int {
	if c := l.comma(i); c >= 0 {
		return c + 1
	}
	return l.items[i].end
}

// put returns the data with an item (key: text, laid out as s says) put
// before item at, or at the end when at is -1.
func (l jsonList) put(text string, s Slot, at int) []byte {
	d := l.data
	if at >= 0 {
		low := l.open + 1
		if at > 0 {
			low, _ = l.tail(at - 1)
		}
		p := l.items[at].key - s.Gap
		if !between(d, low, l.items[at].key, p) {
			p = l.lead(at)
		}
		return splice(d, p, p, s.Lead+s.Key+text+","+s.Trail)
	}
	comma := ""
	if s.Comma {
		comma = ","
	}
	n := len(l.items)
	if n == 0 {
		inner := d[l.open+1 : l.close]
		if len(bytes.TrimSpace(inner)) == 0 {
			return splice(d, l.open+1, l.close, s.Lead+s.Key+text+comma+s.Trail+s.Close)
		}
		p := l.close - s.Gap
		if !between(d, l.open+1, l.close, p) {
			p = l.open + 1 + len(bytes.TrimRight(inner, " \t\r\n"))
		}
		return splice(d, p, p, s.Lead+s.Key+text+comma+s.Trail)
	}
	low, _ := l.tail(n - 1)
	p := l.close - s.Gap
	if s.Gap < 0 || !between(d, low, l.close, p) {
		p = low
	}
	out := splice(d, p, p, s.Lead+s.Key+text+comma+s.Trail)
	if l.comma(n-1) < 0 {
		out = splice(out, l.items[n-1].end, l.items[n-1].end, ",")
	}
	return out
}

// between says whether p is a place from low to high where an item can
// go: not inside a comment, with only spaces and comments around it.
func between(d []byte, low, high, p int) bool {
	if p < low || p > high {
		return false
	}
	for q := low; q < high; {
		switch {
		case q == p:
			return true
		case isSpace(d[q]):
			q++
		case bytes.HasPrefix(d[q:], []byte("//")):
			e := bytes.IndexByte(d[q:high], '\n')
			if e < 0 {
				return p == high
			}
			if p > q && p < q+e {
				return false
			}
			q += e
		case bytes.HasPrefix(d[q:], []byte("/*")):
			e := bytes.Index(d[q:high], []byte("*/"))
			if e < 0 || (p > q && p < q+e+2) {
				return false
			}
			q += e + 2
		default:
			return false // a token: p is not between two items
		}
	}
	return p == high
}

// keyEnd is the offset just past the JSON string starting at off.
func keyEnd(d []byte, off int) int {
	for i := off + 1; i < len(d); i++ {
		switch d[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(d)
}
