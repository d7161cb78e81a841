package gui

import "strconv"

// The one table of the window's pages and keyboard shortcuts. The native
// menu (menu.go at the repo root) is built from it, and 'go generate
// ./app/gui' writes it to frontend/src/shortcuts.gen.ts, from which the
// navigation, the key handler, the tooltips and the shortcuts sheet read it.
// A new page is one entry in Pages.

//go:generate go run ./internal/shortcutsgen -o ../../frontend/src/shortcuts.gen.ts

// EventMenu carries a MenuCommand: the user chose an item of the native menu
// (or pressed its accelerator, which the menu caught before the page saw it).
const EventMenu = "app:menu"

// MenuCommand is a menu item chosen: the ID of its Shortcut.
type MenuCommand struct {
	ID string `json:"id"`
}

// Page is one page of the window, in navigation order.
type Page struct {
	ID    string // the page's id in the URL hash (#/servers)
	Title string // as the navigation and the Go menu show it
}

// Pages are the window's pages in navigation order; Ctrl (⌘ on macOS) and
// the page's position, 1 to 9, opens it.
var Pages = []Page{
	{"chat", "Chat"},
	{"servers", "Servers"},
	{"tools", "Tools"},
	{"knowledge", "Knowledge"},
	{"workspace", "Workspace"},
	{"agents", "Agents"},
	{"settings", "Settings"},
	{"skills", "Skills"},
	{"apps", "Connected apps"},
}

// Shortcut is one keyboard shortcut of the window.
type Shortcut struct {
	ID    string // "page:<id>" for a page, else the command: newChat, import, settings, shortcuts, about, quit, or a key of the chat composer
	Label string // what it does, as the menu and the shortcuts sheet say it
	Keys  string // the accelerator: "CmdOrCtrl+N" (Ctrl, ⌘ on macOS), "Esc", "Shift+Enter"; "" for a menu item without one
	Menu  string // the native menu that lists it (File, Go, Help); "" for a key only the page handles
}

// Shortcuts is every shortcut: the menus' (File, then Go with a line per
// page, then Help) and then the chat composer's, which only the page
// handles and the shortcuts sheet lists.
func Shortcuts() []Shortcut {
	s := []Shortcut{
		{"newChat", "New chat", "CmdOrCtrl+N", "File"},
		{"import", "Import servers…", "CmdOrCtrl+I", "File"},
		{"settings", "Settings", "CmdOrCtrl+,", "File"},
		{"quit", "Quit", "CmdOrCtrl+Q", "File"},
	}
	for i, p := range Pages {
		keys := ""
		if i < 9 {
			keys = "CmdOrCtrl+" + strconv.Itoa(i+1)
		}
		s = append(s, Shortcut{"page:" + p.ID, p.Title, keys, "Go"})
	}
	return append(s,
		Shortcut{"shortcuts", "Keyboard shortcuts", "CmdOrCtrl+/", "Help"},
		Shortcut{"about", "About Switchboard", "", "Help"},
		Shortcut{"send", "Send the message", "Enter", ""},
		Shortcut{"newline", "New line in the message", "Shift+Enter", ""},
		Shortcut{"stop", "Stop the answer", "Esc", ""},
		Shortcut{"editLast", "Edit your last message (in an empty message box)", "Up", ""},
	)
}

// ChooseMenu tells the page the user chose the menu item of shortcut id; it
// does what the shortcut does (quit and about are the menu's own).
func ChooseMenu(a *Window, id string) { a.emitEvent(EventMenu, MenuCommand{ID: id}) }
