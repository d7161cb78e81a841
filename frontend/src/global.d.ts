// What Wails injects into the page: window.go.app.<bound struct>.<method>
// (App, ServersPage, ChatPage, ...). Only presence is checked here; calls go
// through the backend module (backend/), which re-exports the generated,
// typed bindings of ../wailsjs.
interface Window {
  go?: { app?: Record<string, Record<string, ((...args: never[]) => Promise<unknown>) | undefined> | undefined> };
}
