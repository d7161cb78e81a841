// What Wails injects into the page. Only presence is checked here; calls go
// through the generated, typed bindings in ../wailsjs.
interface Window {
  go?: { app?: { App?: Record<string, ((...args: never[]) => Promise<unknown>) | undefined> } };
}
