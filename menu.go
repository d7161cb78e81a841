package main

import (
	"crypto/sha256"
	"encoding/hex"
	"runtime"

	"github.com/wailsapp/wails/v2/pkg/menu"
	"github.com/wailsapp/wails/v2/pkg/menu/keys"

	"github.com/switchboard-app/switchboard/app/gui"
)

// appMenu is the window's menu bar: the platform's usual menus on macOS,
// and Help → About everywhere (it asks the frontend to show the About
// dialog, which has the version, the data and log folders and the licence).
func appMenu(a *gui.Window) *menu.Menu {
	m := menu.NewMenu()
	if runtime.GOOS == "darwin" {
		m.Append(menu.AppMenu())
		m.Append(menu.EditMenu())
		m.Append(menu.WindowMenu())
	} else {
		file := m.AddSubmenu("File")
		file.AddText("Quit", keys.CmdOrCtrl("q"), func(*menu.CallbackData) { gui.Quit(a) })
	}
	help := m.AddSubmenu("Help")
	help.AddText("About Switchboard", nil, func(*menu.CallbackData) { gui.ShowAbout(a) })
	return m
}

// instanceID names the single-instance lock: one per user (the lock lives
// on the user's session bus or in their temp dir) and per data dir, so a
// second data dir (--data-dir) is a second app.
func instanceID(dataDir string) string {
	sum := sha256.Sum256([]byte(dataDir))
	return "io.switchboard.app." + hex.EncodeToString(sum[:6])
}
