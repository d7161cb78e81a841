export namespace app {
	
	export class ContentView {
	    type: string;
	    text: string;
	    data: string;
	    mimeType: string;
	    uri: string;
	
	    static createFrom(source: any = {}) {
	        return new ContentView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.type = source["type"];
	        this.text = source["text"];
	        this.data = source["data"];
	        this.mimeType = source["mimeType"];
	        this.uri = source["uri"];
	    }
	}
	export class CallResult {
	    isError: boolean;
	    content: ContentView[];
	    structured: string;
	    durationMs: number;
	
	    static createFrom(source: any = {}) {
	        return new CallResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.isError = source["isError"];
	        this.content = this.convertValues(source["content"], ContentView);
	        this.structured = source["structured"];
	        this.durationMs = source["durationMs"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ChatOptions {
	    offServers?: string[];
	    offTools?: string[];
	
	    static createFrom(source: any = {}) {
	        return new ChatOptions(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.offServers = source["offServers"];
	        this.offTools = source["offTools"];
	    }
	}
	export class ProviderView {
	    name: string;
	    kind: string;
	    baseUrl: string;
	    defaultModel: string;
	    hasKey: boolean;
	    keyName: string;
	    default: boolean;
	
	    static createFrom(source: any = {}) {
	        return new ProviderView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.kind = source["kind"];
	        this.baseUrl = source["baseUrl"];
	        this.defaultModel = source["defaultModel"];
	        this.hasKey = source["hasKey"];
	        this.keyName = source["keyName"];
	        this.default = source["default"];
	    }
	}
	export class ChatSettingsView {
	    providers: ProviderView[];
	    defaultProvider: string;
	    policies: Record<string, string>;
	    maxSteps: number;
	    system: string;
	    toolSearchAbove: number;
	    pinned: string[];
	
	    static createFrom(source: any = {}) {
	        return new ChatSettingsView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.providers = this.convertValues(source["providers"], ProviderView);
	        this.defaultProvider = source["defaultProvider"];
	        this.policies = source["policies"];
	        this.maxSteps = source["maxSteps"];
	        this.system = source["system"];
	        this.toolSearchAbove = source["toolSearchAbove"];
	        this.pinned = source["pinned"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class DiscoveredConfig {
	    app: string;
	    path: string;
	    scope: string;
	
	    static createFrom(source: any = {}) {
	        return new DiscoveredConfig(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.app = source["app"];
	        this.path = source["path"];
	        this.scope = source["scope"];
	    }
	}
	export class SecretMove {
	    key: string;
	    field: string;
	    name: string;
	    masked: string;
	
	    static createFrom(source: any = {}) {
	        return new SecretMove(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.key = source["key"];
	        this.field = source["field"];
	        this.name = source["name"];
	        this.masked = source["masked"];
	    }
	}
	export class ProblemView {
	    path: string;
	    line: number;
	    col: number;
	    severity: string;
	    message: string;
	    text: string;
	
	    static createFrom(source: any = {}) {
	        return new ProblemView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.line = source["line"];
	        this.col = source["col"];
	        this.severity = source["severity"];
	        this.message = source["message"];
	        this.text = source["text"];
	    }
	}
	export class ImportItemView {
	    name: string;
	    outcome: string;
	    default: string;
	    renameTo: string;
	    transport: string;
	    target: string;
	    changes: string[];
	    problems: ProblemView[];
	    needsInputs: string[];
	    secrets: SecretMove[];
	
	    static createFrom(source: any = {}) {
	        return new ImportItemView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.outcome = source["outcome"];
	        this.default = source["default"];
	        this.renameTo = source["renameTo"];
	        this.transport = source["transport"];
	        this.target = source["target"];
	        this.changes = source["changes"];
	        this.problems = this.convertValues(source["problems"], ProblemView);
	        this.needsInputs = source["needsInputs"];
	        this.secrets = this.convertValues(source["secrets"], SecretMove);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class InputView {
	    id: string;
	    description: string;
	    password: boolean;
	
	    static createFrom(source: any = {}) {
	        return new InputView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.description = source["description"];
	        this.password = source["password"];
	    }
	}
	export class ImportPreview {
	    format: string;
	    items: ImportItemView[];
	    inputs: InputView[];
	    problems: ProblemView[];
	
	    static createFrom(source: any = {}) {
	        return new ImportPreview(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.format = source["format"];
	        this.items = this.convertValues(source["items"], ImportItemView);
	        this.inputs = this.convertValues(source["inputs"], InputView);
	        this.problems = this.convertValues(source["problems"], ProblemView);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Info {
	    name: string;
	    version: string;
	    dataDir: string;
	
	    static createFrom(source: any = {}) {
	        return new Info(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.version = source["version"];
	        this.dataDir = source["dataDir"];
	    }
	}
	
	export class MetaView {
	    description: string;
	    tags: string[];
	    docsUrl: string;
	    color: string;
	    icon: string;
	    template: string;
	
	    static createFrom(source: any = {}) {
	        return new MetaView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.description = source["description"];
	        this.tags = source["tags"];
	        this.docsUrl = source["docsUrl"];
	        this.color = source["color"];
	        this.icon = source["icon"];
	        this.template = source["template"];
	    }
	}
	export class PendingRequest {
	    approval?: chat.ApprovalRequest;
	    elicit?: chat.ElicitRequest;
	
	    static createFrom(source: any = {}) {
	        return new PendingRequest(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.approval = this.convertValues(source["approval"], chat.ApprovalRequest);
	        this.elicit = this.convertValues(source["elicit"], chat.ElicitRequest);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class ProfilesView {
	    active: string;
	    names: string[];
	
	    static createFrom(source: any = {}) {
	        return new ProfilesView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.active = source["active"];
	        this.names = source["names"];
	    }
	}
	export class PromptArgument {
	    name: string;
	    description: string;
	    required: boolean;
	
	    static createFrom(source: any = {}) {
	        return new PromptArgument(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.description = source["description"];
	        this.required = source["required"];
	    }
	}
	export class PromptView {
	    server: string;
	    name: string;
	    title: string;
	    description: string;
	    arguments: PromptArgument[];
	
	    static createFrom(source: any = {}) {
	        return new PromptView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.server = source["server"];
	        this.name = source["name"];
	        this.title = source["title"];
	        this.description = source["description"];
	        this.arguments = this.convertValues(source["arguments"], PromptArgument);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ProviderInput {
	    name: string;
	    kind: string;
	    baseUrl: string;
	    defaultModel: string;
	    apiKey: string;
	
	    static createFrom(source: any = {}) {
	        return new ProviderInput(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.kind = source["kind"];
	        this.baseUrl = source["baseUrl"];
	        this.defaultModel = source["defaultModel"];
	        this.apiKey = source["apiKey"];
	    }
	}
	
	export class ResourceView {
	    server: string;
	    uri: string;
	    name: string;
	    description: string;
	    mimeType: string;
	
	    static createFrom(source: any = {}) {
	        return new ResourceView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.server = source["server"];
	        this.uri = source["uri"];
	        this.name = source["name"];
	        this.description = source["description"];
	        this.mimeType = source["mimeType"];
	    }
	}
	
	export class ServerErrorView {
	    server: string;
	    error: string;
	
	    static createFrom(source: any = {}) {
	        return new ServerErrorView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.server = source["server"];
	        this.error = source["error"];
	    }
	}
	export class ServerView {
	    name: string;
	    state: string;
	    error: string;
	    pid: number;
	    restarts: number;
	    transport: string;
	    command: string;
	    toolCount: number;
	    serverName: string;
	    version: string;
	    since: string;
	    calls: number;
	    errors: number;
	    p50Ms: number;
	    stderrTail: string[];
	    meta: MetaView;
	    description: string;
	    title: string;
	    instructions: string;
	    docsUrl: string;
	    usedBy: string[];
	    seq: number;
	
	    static createFrom(source: any = {}) {
	        return new ServerView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.state = source["state"];
	        this.error = source["error"];
	        this.pid = source["pid"];
	        this.restarts = source["restarts"];
	        this.transport = source["transport"];
	        this.command = source["command"];
	        this.toolCount = source["toolCount"];
	        this.serverName = source["serverName"];
	        this.version = source["version"];
	        this.since = source["since"];
	        this.calls = source["calls"];
	        this.errors = source["errors"];
	        this.p50Ms = source["p50Ms"];
	        this.stderrTail = source["stderrTail"];
	        this.meta = this.convertValues(source["meta"], MetaView);
	        this.description = source["description"];
	        this.title = source["title"];
	        this.instructions = source["instructions"];
	        this.docsUrl = source["docsUrl"];
	        this.usedBy = source["usedBy"];
	        this.seq = source["seq"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class TemplateView {
	    id: string;
	    title: string;
	    description: string;
	    tags: string[];
	    docsUrl: string;
	    source: string;
	    preview: string;
	    params: library.Param[];
	    error: string;
	
	    static createFrom(source: any = {}) {
	        return new TemplateView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.title = source["title"];
	        this.description = source["description"];
	        this.tags = source["tags"];
	        this.docsUrl = source["docsUrl"];
	        this.source = source["source"];
	        this.preview = source["preview"];
	        this.params = this.convertValues(source["params"], library.Param);
	        this.error = source["error"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class TerminalAttachment {
	    history: string;
	    attach: string;
	
	    static createFrom(source: any = {}) {
	        return new TerminalAttachment(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.history = source["history"];
	        this.attach = source["attach"];
	    }
	}
	export class ToolView {
	    name: string;
	    server: string;
	    tool: string;
	    title: string;
	    description: string;
	    inputSchema: string;
	    readOnly: boolean;
	    destructive: boolean;
	    defaultPolicy: string;
	
	    static createFrom(source: any = {}) {
	        return new ToolView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.server = source["server"];
	        this.tool = source["tool"];
	        this.title = source["title"];
	        this.description = source["description"];
	        this.inputSchema = source["inputSchema"];
	        this.readOnly = source["readOnly"];
	        this.destructive = source["destructive"];
	        this.defaultPolicy = source["defaultPolicy"];
	    }
	}
	export class ToolList {
	    tools: ToolView[];
	    errors: ServerErrorView[];
	
	    static createFrom(source: any = {}) {
	        return new ToolList(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.tools = this.convertValues(source["tools"], ToolView);
	        this.errors = this.convertValues(source["errors"], ServerErrorView);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class WorkspaceView {
	    root: string;
	    fresh: boolean;
	    sessions: string[];
	
	    static createFrom(source: any = {}) {
	        return new WorkspaceView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.root = source["root"];
	        this.fresh = source["fresh"];
	        this.sessions = source["sessions"];
	    }
	}

}

export namespace chat {
	
	export class Agent {
	    id: string;
	    name: string;
	    description?: string;
	    system?: string;
	    provider?: string;
	    model?: string;
	    servers: string[];
	    tools?: string[];
	    policies?: Record<string, string>;
	    delegate?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new Agent(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.description = source["description"];
	        this.system = source["system"];
	        this.provider = source["provider"];
	        this.model = source["model"];
	        this.servers = source["servers"];
	        this.tools = source["tools"];
	        this.policies = source["policies"];
	        this.delegate = source["delegate"];
	    }
	}
	export class ApprovalRequest {
	    id: string;
	    chatId: string;
	    kind: string;
	    server: string;
	    tool: string;
	    arguments: number[];
	    destructive: boolean;
	
	    static createFrom(source: any = {}) {
	        return new ApprovalRequest(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.chatId = source["chatId"];
	        this.kind = source["kind"];
	        this.server = source["server"];
	        this.tool = source["tool"];
	        this.arguments = source["arguments"];
	        this.destructive = source["destructive"];
	    }
	}
	export class ElicitRequest {
	    id: string;
	    chatId?: string;
	    server: string;
	    mode: string;
	    message: string;
	    schema?: number[];
	    url?: string;
	
	    static createFrom(source: any = {}) {
	        return new ElicitRequest(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.chatId = source["chatId"];
	        this.server = source["server"];
	        this.mode = source["mode"];
	        this.message = source["message"];
	        this.schema = source["schema"];
	        this.url = source["url"];
	    }
	}

}

export namespace history {
	
	export class Chat {
	    id: string;
	    title: string;
	    provider: string;
	    model: string;
	    agent: string;
	    settings: number[];
	    // Go type: time
	    createdAt: any;
	    // Go type: time
	    updatedAt: any;
	    messageCount: number;
	
	    static createFrom(source: any = {}) {
	        return new Chat(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.title = source["title"];
	        this.provider = source["provider"];
	        this.model = source["model"];
	        this.agent = source["agent"];
	        this.settings = source["settings"];
	        this.createdAt = this.convertValues(source["createdAt"], null);
	        this.updatedAt = this.convertValues(source["updatedAt"], null);
	        this.messageCount = source["messageCount"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Hit {
	    chatId: string;
	    title: string;
	    messageId: string;
	    snippet: string;
	    rank: number;
	
	    static createFrom(source: any = {}) {
	        return new Hit(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.chatId = source["chatId"];
	        this.title = source["title"];
	        this.messageId = source["messageId"];
	        this.snippet = source["snippet"];
	        this.rank = source["rank"];
	    }
	}
	export class ToolCall {
	    id: string;
	    messageId: string;
	    server: string;
	    tool: string;
	    arguments: number[];
	    result: number[];
	    isError: boolean;
	    status: string;
	    // Go type: time
	    startedAt: any;
	    durationMs: number;
	
	    static createFrom(source: any = {}) {
	        return new ToolCall(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.messageId = source["messageId"];
	        this.server = source["server"];
	        this.tool = source["tool"];
	        this.arguments = source["arguments"];
	        this.result = source["result"];
	        this.isError = source["isError"];
	        this.status = source["status"];
	        this.startedAt = this.convertValues(source["startedAt"], null);
	        this.durationMs = source["durationMs"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Message {
	    id: string;
	    chatId: string;
	    seq: number;
	    role: string;
	    text: string;
	    status: string;
	    error: string;
	    model: string;
	    inputTokens: number;
	    outputTokens: number;
	    // Go type: time
	    createdAt: any;
	    toolCalls: ToolCall[];
	
	    static createFrom(source: any = {}) {
	        return new Message(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.chatId = source["chatId"];
	        this.seq = source["seq"];
	        this.role = source["role"];
	        this.text = source["text"];
	        this.status = source["status"];
	        this.error = source["error"];
	        this.model = source["model"];
	        this.inputTokens = source["inputTokens"];
	        this.outputTokens = source["outputTokens"];
	        this.createdAt = this.convertValues(source["createdAt"], null);
	        this.toolCalls = this.convertValues(source["toolCalls"], ToolCall);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace library {
	
	export class Override {
	    url?: string;
	    args?: string[];
	    env?: Record<string, string>;
	    headers?: Record<string, string>;
	
	    static createFrom(source: any = {}) {
	        return new Override(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.url = source["url"];
	        this.args = source["args"];
	        this.env = source["env"];
	        this.headers = source["headers"];
	    }
	}
	export class Param {
	    name: string;
	    title: string;
	    description: string;
	    type: string;
	    default: string;
	    enum: string[];
	    required: boolean;
	    secret: boolean;
	    format: string;
	
	    static createFrom(source: any = {}) {
	        return new Param(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.title = source["title"];
	        this.description = source["description"];
	        this.type = source["type"];
	        this.default = source["default"];
	        this.enum = source["enum"];
	        this.required = source["required"];
	        this.secret = source["secret"];
	        this.format = source["format"];
	    }
	}

}

export namespace mcpmanager {
	
	export class ReportStep {
	    name: string;
	    ms: number;
	    error: string;
	
	    static createFrom(source: any = {}) {
	        return new ReportStep(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.ms = source["ms"];
	        this.error = source["error"];
	    }
	}
	export class TestReport {
	    server: string;
	    ok: boolean;
	    steps: ReportStep[];
	    totalMs: number;
	    transport: string;
	    serverName: string;
	    version: string;
	    protocol: string;
	    tools: string[];
	    failed: string;
	    error: string;
	    stderr: string[];
	
	    static createFrom(source: any = {}) {
	        return new TestReport(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.server = source["server"];
	        this.ok = source["ok"];
	        this.steps = this.convertValues(source["steps"], ReportStep);
	        this.totalMs = source["totalMs"];
	        this.transport = source["transport"];
	        this.serverName = source["serverName"];
	        this.version = source["version"];
	        this.protocol = source["protocol"];
	        this.tools = source["tools"];
	        this.failed = source["failed"];
	        this.error = source["error"];
	        this.stderr = source["stderr"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace provider {
	
	export class Model {
	    id: string;
	    name: string;
	    contextWindow?: number;
	
	    static createFrom(source: any = {}) {
	        return new Model(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.contextWindow = source["contextWindow"];
	    }
	}

}

export namespace secrets {
	
	export class SecretInfo {
	    name: string;
	    masked: string;
	    usedBy: string[];
	
	    static createFrom(source: any = {}) {
	        return new SecretInfo(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.masked = source["masked"];
	        this.usedBy = source["usedBy"];
	    }
	}

}

