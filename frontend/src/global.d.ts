// What Wails injects into the page: window.go.gui.<bound struct>.<method>
// (Window, ServersPage, ChatPage, ...). Only presence is checked here; calls go
// through the backend module (backend/), which re-exports the generated,
// typed bindings of ../wailsjs.
interface Window {
  go?: { gui?: Record<string, Record<string, ((...args: never[]) => Promise<unknown>) | undefined> | undefined> };
}
