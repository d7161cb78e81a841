package clients

import (
	"fmt"
	"slices"
	"strings"

	"github.com/switchboard-app/switchboard/mcpmanager/config"
)

// gated is a file that, beside its servers, lists the ones the app may
// start and the ones it never starts: Gemini CLI's settings.json, whose
// "mcp": {"allowed": [...], "excluded": [...]} (before Gemini CLI 0.3,
// "allowMCPServers" and "excludeMCPServers") keep every server it does not
// allow from starting. Switchboard's entry must be allowed and not
// excluded, or the app never starts it while 'clients list' says connected.
type gated interface {
	admit(name string) ([]byte, error)   // allowed gets name, excluded loses it
	unadmit(name string) ([]byte, error) // allowed loses name
	excluded(name string) bool
	exclude(name string) ([]byte, error)
}

// gateKeys are where a Gemini CLI settings file keeps each list, the
// current key first.
var gateKeys = map[string][][]string{
	"allowed":  {{"mcp", "allowed"}, {"allowMCPServers"}},
	"excluded": {{"mcp", "excluded"}, {"excludeMCPServers"}},
}

// gateList is the file's list of kind ("allowed" or "excluded"), nil when
// it has none, with its key path for messages. A list only counts in the
// settings of Gemini CLI (and its forks): servers under a top-level
// "mcpServers".
func (d *jsonDoc) gateList(kind string) (*config.JSONValue, string) {
	if d.root == nil || d.f.Style != config.StyleMCPServers || !slices.Equal(d.f.Key, []string{"mcpServers"}) {
		return nil, ""
	}
	for _, path := range gateKeys[kind] {
		v := d.root
		for _, k := range path {
			if v == nil || v.Kind != "object" {
				v = nil
				break
			}
			v = v.Get(k)
		}
		if v != nil {
			return v, strings.Join(path, ".")
		}
	}
	return nil, ""
}

// gateIndex is where name is in the list, -1 when it is not.
func gateIndex(list *config.JSONValue, name string) int {
	if list == nil || list.Kind != "array" {
		return -1
	}
	return slices.IndexFunc(list.Elems, func(e *config.JSONValue) bool { return e.Kind == "string" && e.Text == name })
}

// listError is a list connect cannot edit: the app would not start
// Switchboard's entry, so nothing is written.
func (d *jsonDoc) listError(key string, v *config.JSONValue) error {
	return shapeError(d.f, fmt.Sprintf("%q is a %s, not a list of server names, so Gemini CLI would not start Switchboard's entry; write it as a list (or delete it) and connect again", key, v.Kind))
}

func (d *jsonDoc) admit(name string) ([]byte, error) {
	out := d
	if ex, key := d.gateList("excluded"); ex != nil {
		if ex.Kind != "array" {
			return nil, d.listError(key, ex)
		}
		if i := gateIndex(ex, name); i >= 0 {
			data, _ := arrayList(d.data, ex).cut(i)
			var err error
			if out, err = readJSON(d.f, data); err != nil {
				return nil, err
			}
		}
	}
	al, key := out.gateList("allowed")
	if al == nil {
		return out.data, nil
	}
	if al.Kind != "array" {
		return nil, d.listError(key, al)
	}
	if gateIndex(al, name) >= 0 {
		return out.data, nil
	}
	return out.appendElem(al, name), nil
}

func (d *jsonDoc) unadmit(name string) ([]byte, error) {
	al, _ := d.gateList("allowed")
	if i := gateIndex(al, name); i >= 0 {
		out, _ := arrayList(d.data, al).cut(i)
		return out, nil
	}
	return d.data, nil
}

func (d *jsonDoc) excluded(name string) bool {
	ex, _ := d.gateList("excluded")
	return gateIndex(ex, name) >= 0
}

func (d *jsonDoc) exclude(name string) ([]byte, error) {
	ex, _ := d.gateList("excluded")
	if ex == nil || ex.Kind != "array" {
		return d.data, nil
	}
	return d.appendElem(ex, name), nil
}

// appendElem adds the string name at the end of list, laid out like the
// elements it has (one per line, or on one line).
func (d *jsonDoc) appendElem(list *config.JSONValue, name string) []byte {
	l := arrayList(d.data, list)
	s := Slot{Gap: -1}
	if n := len(l.items); n > 0 {
		s.Comma = l.comma(n-1) >= 0
		if ind, own := indentBefore(d.data, l.items[n-1].key); own {
			s.Lead = "\n" + ind
		} else if n > 1 {
			s.Lead = string(d.data[l.lead(n-1):l.items[n-1].key])
		} else {
			s.Lead = " "
		}
	}
	return l.put(quote(name), s, -1)
}
