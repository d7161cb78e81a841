// The methods Go binds, as Wails generates them (../../wailsjs/go/gui): one
// re-export per bound struct, so a binding the Go side adds or renames shows
// up here (or fails to compile where it is used) without a hand-kept list.
// Each generated function looks window.go up when called, so unit tests
// that set window.go still stand in for the backend.
export * from '../../wailsjs/go/gui/AgentsPage';
export * from '../../wailsjs/go/gui/Window';
export * from '../../wailsjs/go/gui/Bundles';
export * from '../../wailsjs/go/gui/ChatPage';
export * from '../../wailsjs/go/gui/ClientsPage';
export * from '../../wailsjs/go/gui/Content';
export * from '../../wailsjs/go/gui/MCPRegistry';
export * from '../../wailsjs/go/gui/Safety';
export * from '../../wailsjs/go/gui/Sandbox';
export * from '../../wailsjs/go/gui/ServersPage';
export * from '../../wailsjs/go/gui/SkillsPage';
export * from '../../wailsjs/go/gui/SettingsPage';
export * from '../../wailsjs/go/gui/ToolsPage';
export * from '../../wailsjs/go/gui/WelcomePage';
export * from '../../wailsjs/go/gui/WorkspacePage';

// MCPApps binds CallTool and ReadResource too: an MCP App's own calls
// (to its server, under the chat's policy) get names of their own, so the
// plain ones stay the tools page's and the content page's.
export {
  CallTool as CallAppTool,
  DescribeDownload as DescribeAppDownload,
  Log as AppLog,
  OpenApp,
  OpenLink as OpenAppLink,
  ReadResource as ReadAppResource,
  Sample as AppSample,
  SaveDownload as SaveAppDownload,
  SetModelContext,
  ToolApp,
} from '../../wailsjs/go/gui/MCPApps';
