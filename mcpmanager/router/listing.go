package router

import (
	"slices"
	"unsafe"

	"github.com/mark3labs/mcp-go/mcp"
)

// serverListing is one server's part of a listing: its cached list (the
// very slice the cache holds), the gate's verdicts on it, and what was
// wrong with it.
type serverListing struct {
	tools    []mcp.Tool
	verdicts []error // the gate's, for each of tools
	dups     []string
	err      error
}

// mergedListing is a merge of every server's listing (Tools), kept while
// it is made of the same lists. A chat lists the tools at every turn:
// merging 320 tools again (names made unique, sorted) each time was a
// good part of a step's time and garbage.
type mergedListing struct {
	servers []string
	lists   []serverListing // held: their addresses identify them, and cannot be reused while held
	tools   []Tool
	failed  []serverFailure
	version uint64
}

// cacheable: only a merge of lists that came whole is kept. A failed list
// or one with a duplicate name has no cached slice to recognise it by.
func (m *mergedListing) cacheable() bool {
	for _, l := range m.lists {
		if l.err != nil || l.dups != nil {
			return false
		}
	}
	return true
}

// of reports whether m was merged from exactly these lists: the same
// servers, each with the same cached slice and the same verdicts (the
// router's cache and the gate's memo hand out new slices when anything
// changes; see screened).
func (m *mergedListing) of(servers []string, lists []serverListing) bool {
	if !slices.Equal(m.servers, servers) || len(m.lists) != len(lists) {
		return false
	}
	for i, l := range lists {
		o := m.lists[i]
		if l.err != nil || l.dups != nil || !same(o.tools, l.tools) || !same(o.verdicts, l.verdicts) {
			return false
		}
	}
	return true
}

// same reports whether a and b are the same slice (the same array and
// length), not merely equal ones; two nil or empty slices are the same.
func same[T any](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	return len(a) == 0 || unsafe.SliceData(a) == unsafe.SliceData(b)
}
