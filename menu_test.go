package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/wailsapp/wails/v2/pkg/menu"
	"github.com/wailsapp/wails/v2/pkg/menu/keys"

	"github.com/switchboard-app/switchboard/app/gui"
)

// layout renders a menu as "Menu: Label [accelerator]" lines.
func layout(m *menu.Menu) []string {
	var out []string
	for _, top := range m.Items {
		if top.SubMenu == nil {
			continue
		}
		for _, it := range top.SubMenu.Items {
			acc := ""
			if it.Accelerator != nil {
				acc = " [" + strings.Join(append(modifiers(it.Accelerator), it.Accelerator.Key), "+") + "]"
			}
			out = append(out, top.Label+": "+it.Label+acc)
		}
	}
	return out
}

func modifiers(a *keys.Accelerator) []string {
	var s []string
	for _, m := range a.Modifiers {
		s = append(s, string(m))
	}
	return s
}

// The menu lists the pages (from gui.Pages, so a new page is one entry
// there), New chat, Import, Settings and the shortcuts sheet, each with
// the table's accelerator, and choosing an item reports its shortcut's ID.
func TestMenuFollowsTheShortcuts(t *testing.T) {
	var chose []string
	m := buildMenu("linux", gui.Shortcuts(), func(id string) { chose = append(chose, id) })
	got := strings.Join(layout(m), "\n")
	want := []string{
		"File: New chat [cmdorctrl+n]",
		"File: Import servers… [cmdorctrl+i]",
		"File: Settings [cmdorctrl+,]",
		"File: Quit [cmdorctrl+q]",
		"Help: Keyboard shortcuts [cmdorctrl+/]",
		"Help: About Switchboard",
	}
	for i, p := range gui.Pages {
		want = append(want, fmt.Sprintf("Go: %s [cmdorctrl+%d]", p.Title, i+1))
	}
	for _, w := range want {
		if !strings.Contains(got+"\n", w+"\n") {
			t.Errorf("the menu lacks %q; it is:\n%s", w, got)
		}
	}
	// Every item does its shortcut: click each and collect the IDs.
	var ids []string
	for _, top := range m.Items {
		for _, it := range top.SubMenu.Items {
			it.Click(&menu.CallbackData{MenuItem: it})
		}
	}
	for _, s := range gui.Shortcuts() {
		if s.Menu != "" {
			ids = append(ids, s.ID)
		}
	}
	if strings.Join(chose, ",") != strings.Join(ids, ",") {
		t.Errorf("clicking every item chose %v, want %v", chose, ids)
	}
}

// No two shortcuts share keys, and each page up to the ninth has one.
func TestShortcutsAreUnique(t *testing.T) {
	seen := map[string]string{}
	for _, s := range gui.Shortcuts() {
		if s.Keys == "" {
			continue
		}
		k := strings.ToLower(s.Keys)
		if other, ok := seen[k]; ok {
			t.Errorf("%s and %s both use %s", other, s.ID, s.Keys)
		}
		seen[k] = s.ID
		if s.Menu != "" {
			if _, err := keys.Parse(s.Keys); err != nil {
				t.Errorf("%s: %q does not parse as an accelerator: %v", s.ID, s.Keys, err)
			}
		}
	}
}

// On macOS the App menu holds Quit and About, and Edit and Window are there.
func TestMacMenu(t *testing.T) {
	m := buildMenu("darwin", gui.Shortcuts(), func(string) {})
	var tops []string
	for _, it := range m.Items {
		tops = append(tops, it.Label)
	}
	got := strings.Join(layout(m), "\n")
	if strings.Contains(got, "File: Quit") || strings.Contains(got, "Help: About") {
		t.Errorf("macOS menu repeats the App menu's items:\n%s", got)
	}
	if !strings.Contains(got, "File: New chat [cmdorctrl+n]") || !strings.Contains(got, "Go: Chat [cmdorctrl+1]") {
		t.Errorf("macOS menu lacks New chat or the pages:\n%s", got)
	}
	if len(m.Items) < 6 {
		t.Errorf("macOS menu has %d menus (%v), want App, File, Edit, Go, Help, Window", len(m.Items), tops)
	}
}
