// What Wails injects into the page: window.go.app.<bound struct>.<method>
// (App, ServersPage, ChatPage, ...). Only presence is checked here; calls go
// through the generated, typed bindings in ../wailsjs.
interface Window {
  go?: { app?: Record<string, Record<string, ((...args: never[]) => Promise<unknown>) | undefined> | undefined> };
}
