package host

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/mcpmanager/bundle"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

// BundleChange is one difference between the installed copy of a bundle
// and the one about to replace it.
type BundleChange struct {
	What string `json:"what"` // version (an older one), author, signer or command
	Was  string `json:"was"`
	Now  string `json:"now"`
}

// whats names the changes: "author and signer".
func whats(cs []BundleChange) string {
	var w []string
	for _, c := range cs {
		w = append(w, c.What)
	}
	if len(w) < 2 {
		return strings.Join(w, "")
	}
	return strings.Join(w[:len(w)-1], ", ") + " and " + w[len(w)-1]
}

// commandLine is the command the manifest runs on this platform, as its
// author wrote it (placeholders kept), environment first.
func commandLine(m bundle.Manifest) string {
	c := m.Config("")
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(c.Env)) {
		parts = append(parts, k+"="+quoteArg(c.Env[k]))
	}
	parts = append(parts, quoteArg(c.Command))
	for _, a := range c.Args {
		parts = append(parts, quoteArg(a))
	}
	return strings.Join(parts, " ")
}

func quoteArg(s string) string {
	if s == "" || strings.ContainsAny(s, " \t\n\"'\\") {
		return strconv.Quote(s)
	}
	return s
}

// signer says who signed a bundle, the certificate's fingerprint included
// when there is one: a new key under the same name is another signer.
func signer(summary, fingerprint string) string {
	if fingerprint == "" {
		return summary
	}
	return summary + " [SHA-256 " + fingerprint[:min(len(fingerprint), 16)] + "…]"
}

// bundleChanges is what installing bd over prev (its entry s) changes.
func bundleChanges(prev Installed, s Server, bd *bundle.Bundle) []BundleChange {
	if prev.Name == "" {
		return nil
	}
	m := bd.Manifest
	var out []BundleChange
	if bundle.CompareVersions(m.Version, prev.Version) < 0 {
		out = append(out, BundleChange{What: "version", Was: prev.Version, Now: m.Version}) // older: going back is a choice
	}
	if prev.Author != m.Author.Name {
		out = append(out, BundleChange{What: "author", Was: prev.Author, Now: m.Author.Name})
	}
	was, now := signer(prev.Signature, prev.Fingerprint), signer(bd.Signature.Summary(), bd.Signature.Fingerprint)
	if prev.Fingerprint == "" {
		now = bd.Signature.Summary() // an older record kept no fingerprint
	}
	if was != now {
		out = append(out, BundleChange{What: "signer", Was: was, Now: now})
	}
	cmd := commandLine(m)
	if prev.Command != "" {
		if prev.Command != cmd {
			out = append(out, BundleChange{What: "command", Was: prev.Command, Now: cmd})
		}
	} else if old, c := strings.ReplaceAll(s.Command, prev.Dir, "${__dirname}"), m.Config("").Command; old != c {
		// An older record kept only the entry: compare the executable.
		out = append(out, BundleChange{What: "command", Was: old, Now: c})
	}
	return out
}

// distrust makes server's tools be reviewed again after its command
// changed: every pinned definition is withheld until trusted anew.
func (b *Bundles) distrust(server string) error { return b.h.pins.Reset(server) }

// dropAllow drops the policies that let server's tools run without
// asking (in the chat settings and every agent's), inside an edit of cfg.
func dropAllow(cfg *config.Config, server string) error {
	drop := func(p chat.Policies) {
		for k, v := range p {
			if v == chat.PolicyAllow && strings.HasPrefix(k, server+router.Separator) {
				delete(p, k)
			}
		}
	}
	return editChat(cfg, func(s *ChatSettings) error {
		drop(s.Policies)
		for i := range s.Agents {
			drop(s.Agents[i].Policies)
		}
		return nil
	})
}
