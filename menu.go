package main

import (
	"crypto/sha256"
	"encoding/hex"
	"runtime"

	"github.com/wailsapp/wails/v2/pkg/menu"
	"github.com/wailsapp/wails/v2/pkg/menu/keys"

	"github.com/switchboard-app/switchboard/app/gui"
)

// appMenu is the window's menu bar, built from the window's one table of
// shortcuts (gui.Shortcuts): File (New chat, Import servers…, Settings,
// Quit), Go (a line per page, Ctrl/⌘+1…9) and Help (Keyboard shortcuts,
// About), with the platform's usual App, Edit and Window menus on macOS.
// Each item but Quit asks the page to do what its shortcut does.
func appMenu(a *gui.Window) *menu.Menu {
	return buildMenu(runtime.GOOS, gui.Shortcuts(), func(id string) {
		switch id {
		case "quit":
			gui.Quit(a)
		case "about":
			gui.ShowAbout(a)
		default:
			gui.ChooseMenu(a, id)
		}
	})
}

// buildMenu lays out the shortcuts that name a menu, in the table's order,
// each calling choose with its ID. On macOS the App menu has Quit and About,
// so the table's are left out.
func buildMenu(goos string, shortcuts []gui.Shortcut, choose func(id string)) *menu.Menu {
	m := menu.NewMenu()
	mac := goos == "darwin"
	if mac {
		m.Append(menu.AppMenu())
	}
	subs := map[string]*menu.Menu{}
	for _, s := range shortcuts {
		if s.Menu == "" || (mac && (s.ID == "quit" || s.ID == "about")) {
			continue
		}
		sub := subs[s.Menu]
		if sub == nil {
			if mac && s.Menu == "Go" {
				m.Append(menu.EditMenu()) // Edit after File, as macOS apps have it
			}
			sub = m.AddSubmenu(s.Menu)
			subs[s.Menu] = sub
		}
		var acc *keys.Accelerator
		if s.Keys != "" {
			var err error
			if acc, err = keys.Parse(s.Keys); err != nil {
				panic("gui.Shortcuts: " + s.ID + ": " + err.Error()) // TestMenuFollowsTheShortcuts parses them all
			}
		}
		id := s.ID
		sub.AddText(s.Label, acc, func(*menu.CallbackData) { choose(id) })
	}
	if mac {
		m.Append(menu.WindowMenu())
	}
	return m
}

// instanceID names the single-instance lock: one per user (the lock lives
// on the user's session bus or in their temp dir) and per data dir, so a
// second data dir (--data-dir) is a second app.
func instanceID(dataDir string) string {
	sum := sha256.Sum256([]byte(dataDir))
	return "io.switchboard.app." + hex.EncodeToString(sum[:6])
}
