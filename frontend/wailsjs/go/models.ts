export namespace buildinfo {
	
	export interface Notice {
	    name: string;
	    licence: string;
	    copyright: string;
	    url: string;
	}

}

export namespace gui {
	
	export interface AboutView {
	    name: string;
	    version: string;
	    dataDir: string;
	    logDir: string;
	    licence: string;
	    go: string;
	    thirdParty: buildinfo.Notice[];
	}
	export interface AddSkillRequest {
	    path: string;
	    zipName: string;
	    zip: string;
	    replace: boolean;
	}
	export interface AppCSPView {
	    connectDomains: string[];
	    resourceDomains: string[];
	    frameDomains: string[];
	    baseUriDomains: string[];
	}
	export interface AppDownloadView {
	    name: string;
	    mimeType: string;
	    size: number;
	}
	export interface AppToolView {
	    name: string;
	    server: string;
	    tool: string;
	    resourceUri: string;
	    toolJson: string;
	}
	export interface AppView {
	    server: string;
	    uri: string;
	    html: string;
	    proxyUrl: string;
	    csp?: AppCSPView;
	    policy: string;
	    permissions: host.AppPermissions;
	    allow: string;
	    prefersBorder: boolean;
	    session: string;
	}
	export interface ApprovalView {
	    id: string;
	    chatId: string;
	    kind: string;
	    server: string;
	    tool: string;
	    arguments: string;
	    destructive: boolean;
	    warnings: host.WarningView[];
	    tools?: host.OfferedTool[];
	    app?: string;
	    script?: string;
	    specialist?: string;
	}
	export interface BundleChange {
	    what: string;
	    was: string;
	    now: string;
	}
	export interface BundleTool {
	    name: string;
	    description: string;
	}
	export interface BundleOption {
	    key: string;
	    type: string;
	    title: string;
	    description: string;
	    required: boolean;
	    multiple: boolean;
	    sensitive: boolean;
	    hasMin: boolean;
	    min: number;
	    hasMax: boolean;
	    max: number;
	    values: string[];
	    kept: boolean;
	}
	export interface BundleForm {
	    token: string;
	    name: string;
	    displayName: string;
	    version: string;
	    author: string;
	    description: string;
	    icon: string;
	    signature: string;
	    signed: string;
	    incompatible: string;
	    refused: string;
	    warnings: string[];
	    installed: string;
	    options: BundleOption[];
	    tools: string[];
	    toolInfo: BundleTool[];
	    changes: BundleChange[];
	}
	export interface BundleInfoView {
	    displayName: string;
	    version: string;
	    author: string;
	    icon: string;
	    signature: string;
	    signed: string;
	}
	
	export interface BundlePreview {
	    command: string;
	    env: string[];
	    missing: boolean;
	    problem: string;
	}
	
	export interface ProgressView {
	    progress: number;
	    total?: number;
	    message?: string;
	}
	export interface ChatEvent {
	    chatId: string;
	    seq: number;
	    from?: number;
	    type: string;
	    messageId?: string;
	    role?: string;
	    text?: string;
	    call?: host.ToolCallView;
	    status?: string;
	    error?: string;
	    retryAfterMs?: number;
	    usage?: host.TokenUsage;
	    steps?: number;
	    durationMs?: number;
	    context?: host.ChatContext;
	    progress?: ProgressView;
	}
	export interface ProviderView {
	    name: string;
	    kind: string;
	    baseUrl: string;
	    defaultModel: string;
	    hasKey: boolean;
	    keyName: string;
	    default: boolean;
	    images: string;
	    imagesDefault: boolean;
	    audio: string;
	    audioDefault: boolean;
	}
	export interface ChatSettingsView {
	    providers: ProviderView[];
	    defaultProvider: string;
	    policies: Record<string, string>;
	    maxSteps: number;
	    system: string;
	    toolSearchBy: string;
	    toolSearchShare: number;
	    toolSearchAbove: number;
	    pinned: string[];
	    sampling: host.Sampling;
	    compactAt: number;
	    resultShare: number;
	    keepMB: number;
	    resultBudgets: string[];
	    contextWindows: string[];
	    tools: string;
	    codeModeWindow: number;
	}
	export interface ClientAppsView {
	    apps: host.ClientApp[];
	    servers: string[];
	    builtins: string[];
	    sharing: boolean;
	    address?: string;
	}
	export interface ClientPreview {
	    change: host.ClientChange;
	    envDiffers: string[];
	}
	export interface CloseView {
	    apps: host.SharedApp[];
	}
	export interface ConnectRequest {
	    name: string;
	    move: boolean;
	    envDiffers: string;
	}
	export interface DiscoveredConfig {
	    app: string;
	    path: string;
	    scope: string;
	    servers: number;
	    needsAttention: number;
	    imported: number;
	    problem: string;
	    summary: string;
	}
	export interface ElicitView {
	    id: string;
	    chatId?: string;
	    server: string;
	    mode: string;
	    message: string;
	    schema?: Record<string, any>;
	    url?: string;
	    domain?: string;
	    registrable?: string;
	    written?: string;
	    retry?: boolean;
	}
	export interface MenuCommand {
	    id: string;
	}
	export interface ModelDownload {
	    name: string;
	    done: number;
	    total: number;
	    state: string;
	    error: string;
	    seq: number;
	}
	export interface LocalRuntimeView {
	    state: string;
	    model: string;
	    err: string;
	    restarts: number;
	    context: number;
	    threads: number;
	    quantizedKv: boolean;
	    memoryMb: number;
	    kvMemoryMb: number;
	    why: string;
	    logPath: string;
	    noRuntime: string;
	    cpu: string;
	}
	export interface Notice {
	    id: string;
	    chatId?: string;
	    server: string;
	    kind: string;
	    text: string;
	}
	export interface FileOpen {
	    path: string;
	}
	export interface TerminalData {
	    session: string;
	    attach: string;
	    seq: number;
	    data: string;
	}
	export interface RequestDone {
	    id: string;
	}
	export interface LoginView {
	    name: string;
	    url: string;
	}
	export interface MetaView {
	    description: string;
	    tags: string[];
	    docsUrl: string;
	    color: string;
	    icon: string;
	    template: string;
	}
	export interface ServerView {
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
	    progress: string;
	    bundle?: BundleInfoView;
	    meta: MetaView;
	    description: string;
	    title: string;
	    instructions: string;
	    docsUrl: string;
	    usedBy: string[];
	    icon: string;
	    roots: string[];
	    rootsRule: string;
	    rootsMode: string;
	    configuredFolders: string[];
	    logging: boolean;
	    logLevel: string;
	    protocol: string;
	    sandboxed: boolean;
	    seq: number;
	}
	export interface EventTypes {
	    serverStatus: ServerView;
	    serverLogin: LoginView;
	    chat: ChatEvent;
	    approval: ApprovalView;
	    elicit: ElicitView;
	    requestDone: RequestDone;
	    terminalData: TerminalData;
	    fileOpen: FileOpen;
	    notice: Notice;
	    localModel: LocalRuntimeView;
	    modelDownload: ModelDownload;
	    menu: MenuCommand;
	    closeWithApps: CloseView;
	}
	export interface FieldProblemView {
	    field: string;
	    message: string;
	    line: number;
	    col: number;
	    warning: boolean;
	}
	
	export interface FoundModelView {
	    name: string;
	    app: string;
	    path: string;
	    size: number;
	    added: string;
	}
	export interface SecretMove {
	    key: string;
	    field: string;
	    name: string;
	    masked: string;
	    input: string;
	}
	export interface ProblemView {
	    path: string;
	    line: number;
	    col: number;
	    severity: string;
	    message: string;
	    text: string;
	}
	export interface ImportItemView {
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
	    disabled: boolean;
	}
	export interface InputOption {
	    label: string;
	    value: string;
	}
	export interface InputView {
	    id: string;
	    description: string;
	    password: boolean;
	    default: string;
	    options: InputOption[];
	}
	export interface ImportPreview {
	    format: string;
	    items: ImportItemView[];
	    inputs: InputView[];
	    problems: ProblemView[];
	}
	export interface Info {
	    name: string;
	    version: string;
	    dataDir: string;
	}
	
	
	export interface KeyValueView {
	    key: string;
	    value: string;
	    secret: boolean;
	    secretRef: string;
	}
	export interface LocalModel {
	    name: string;
	    kind: string;
	    baseUrl: string;
	    models: string[];
	    default: string;
	}
	export interface LocalModelView {
	    name: string;
	    title: string;
	    file: string;
	    size: number;
	    ram: number;
	    licence: string;
	    goodFor: string;
	    default: boolean;
	    chosen: boolean;
	    installed: boolean;
	    path: string;
	    partial: number;
	    downloading: boolean;
	}
	export interface LocalModelsView {
	    models: LocalModelView[];
	    downloadUrl: string;
	}
	export interface LocalRunView {
	    context: number;
	    threads: number;
	    cpus: number;
	}
	
	
	export interface MatchView {
	    path: string;
	    glob: string;
	    regex: string;
	}
	
	
	
	
	export interface OAuthView {
	    clientId: string;
	    clientSecret: string;
	    hasSecret: boolean;
	    removeSecret: boolean;
	    redirectPort: number;
	    scopes: string[];
	    remote: boolean;
	}
	export interface PendingRequest {
	    approval?: ApprovalView;
	    elicit?: ElicitView;
	}
	
	export interface ProfilesView {
	    active: string;
	    names: string[];
	}
	
	export interface PromptArgument {
	    name: string;
	    description: string;
	    required: boolean;
	}
	export interface PromptView {
	    server: string;
	    name: string;
	    title: string;
	    description: string;
	    arguments: PromptArgument[];
	    icon: string;
	    template?: string;
	}
	export interface ProviderInput {
	    name: string;
	    kind: string;
	    baseUrl: string;
	    defaultModel: string;
	    apiKey: string;
	    images?: string;
	    audio?: string;
	}
	
	export interface RegistryAdded {
	    name: string;
	    warning: string;
	}
	export interface RegistryOption {
	    index: number;
	    kind: string;
	    label: string;
	    asks: host.RegistryAsk[];
	}
	export interface RegistryServer {
	    name: string;
	    title: string;
	    description: string;
	    version: string;
	    websiteUrl: string;
	    repository: string;
	    entryName: string;
	    status: string;
	    options: RegistryOption[];
	    unsupported: string;
	}
	export interface RegistryList {
	    servers: RegistryServer[];
	    nextCursor: string;
	    stale: boolean;
	    fetchedAt: string;
	    age: string;
	    why: string;
	    registry: string;
	}
	
	export interface RegistryPick {
	    name: string;
	    option: number;
	    values: Record<string, string>;
	    bundle: Record<string, Array<string>>;
	    entryName: string;
	}
	export interface RegistryPreview {
	    command: string;
	    name: string;
	    remote: boolean;
	    bundle: boolean;
	    env: string[];
	    headers: string[];
	    problem: string;
	    missing: boolean;
	    fill: string[];
	}
	
	
	export interface ResourceContentsView {
	    uri: string;
	    mimeType: string;
	    text: string;
	    blob: string;
	}
	export interface ResourceReadView {
	    server: string;
	    uri: string;
	    contents: ResourceContentsView[];
	}
	export interface ResourceView {
	    server: string;
	    uri: string;
	    name: string;
	    description: string;
	    mimeType: string;
	    icon: string;
	}
	export interface RuleView {
	    id: string;
	    tool: string;
	    effect: string;
	    match: MatchView[];
	    text: string;
	}
	export interface ToolWarningsView {
	    name: string;
	    server: string;
	    tool: string;
	    warnings: host.WarningView[];
	}
	export interface ToolChangeView {
	    server: string;
	    tool: string;
	    old: string;
	    new: string;
	    seen: string;
	    rejected: boolean;
	    warnings: host.WarningView[];
	}
	export interface SafetyView {
	    changes: ToolChangeView[];
	    warnings: ToolWarningsView[];
	    new: Record<string, Array<string>>;
	}
	export interface SandboxView {
	    enabled: boolean;
	    network: boolean;
	    allowRead: string[];
	    allowWrite: string[];
	    roots: string;
	    local: boolean;
	    unavailable: string;
	}
	
	export interface ServerErrorView {
	    server: string;
	    tool?: string;
	    error: string;
	}
	export interface ServerFormView {
	    name: string;
	    transport: string;
	    command: string;
	    args: string[];
	    env: KeyValueView[];
	    cwd: string;
	    envFile: string;
	    url: string;
	    headers: KeyValueView[];
	    startupTimeoutMs: number;
	    toolTimeoutMs: number;
	    enabled: boolean;
	    includeTools: string[];
	    excludeTools: string[];
	    json: string;
	    base: string;
	    configPath: string;
	}
	export interface ServerSaveView {
	    problems: FieldProblemView[];
	    saved: boolean;
	    server: ServerView;
	    tools: number;
	    unknownTools: string[];
	}
	export interface ServerSkillList {
	    skills: host.Skill[];
	    errors: ServerErrorView[];
	}
	
	export interface TaskSettingsView {
	    optionalAsTasks: boolean;
	    limitMinutes: number;
	}
	export interface TemplateView {
	    id: string;
	    title: string;
	    description: string;
	    tags: string[];
	    docsUrl: string;
	    source: string;
	    preview: string;
	    params: host.TemplateParam[];
	    error: string;
	}
	export interface TerminalAttachment {
	    history: string;
	    attach: string;
	}
	
	
	export interface ToolView {
	    name: string;
	    server: string;
	    tool: string;
	    title: string;
	    description: string;
	    inputSchema: string;
	    readOnly: boolean;
	    destructive: boolean;
	    defaultPolicy: string;
	    icon: string;
	    warnings: host.WarningView[];
	    outputSchema: string;
	}
	export interface ToolList {
	    tools: ToolView[];
	    errors: ServerErrorView[];
	}
	
	
	export interface WelcomeView {
	    show: boolean;
	    configs: DiscoveredConfig[];
	    local: LocalModel[];
	    dataDir: string;
	    logDir: string;
	}

}

export namespace host {
	
	export interface Agent {
	    id: string;
	    name: string;
	    description?: string;
	    system?: string;
	    provider?: string;
	    model?: string;
	    servers: string[];
	    tools?: string[];
	    skills?: string[];
	    policies?: Record<string, string>;
	    delegate?: boolean;
	    toolMode?: string;
	    missing?: string[];
	    providerMissing?: boolean;
	}
	export interface AgentFile {
	    path: string;
	    source: string;
	    agent: Agent;
	    notes: string[];
	    problem?: string;
	    exists?: boolean;
	    imported?: string;
	}
	export interface AppPermissions {
	    camera?: boolean;
	    microphone?: boolean;
	    geolocation?: boolean;
	    clipboardWrite?: boolean;
	}
	export interface ContentView {
	    type: string;
	    text: string;
	    data: string;
	    mimeType: string;
	    uri: string;
	    name: string;
	    title: string;
	    description: string;
	    size?: number;
	}
	export interface CallResult {
	    isError: boolean;
	    content: ContentView[];
	    structured: string;
	    schemaError: string;
	    durationMs: number;
	}
	export interface ChatContext {
	    used: number;
	    window: number;
	    limit: number;
	    system: number;
	    tools: number;
	    history: number;
	    results: number;
	    stubbed?: number;
	    compacting?: boolean;
	    calibrated?: boolean;
	    assumed?: boolean;
	    exact?: boolean;
	    turnStubbed?: number;
	    turnStubbedResults?: number;
	}
	export interface ChatHit {
	    chatId: string;
	    title: string;
	    messageId: string;
	    snippet: string;
	    rank: number;
	}
	export interface ChatOptions {
	    offServers?: string[];
	    offTools?: string[];
	    toolMode?: string;
	}
	export interface ChatView {
	    id: string;
	    title: string;
	    provider: string;
	    model: string;
	    agent: string;
	    options: ChatOptions;
	    createdAt: string;
	    updatedAt: string;
	    messageCount: number;
	}
	export interface ClientFileView {
	    path: string;
	    scope: string;
	    readOnly?: boolean;
	    servers: number;
	    connected: boolean;
	    broken?: string;
	    problem?: string;
	}
	export interface ClientApp {
	    name: string;
	    title: string;
	    found: boolean;
	    files: ClientFileView[];
	    connected: boolean;
	    ownServers: number;
	    running: boolean;
	    broken?: string;
	    servers: string[];
	    moved: string[];
	    lastConnected?: string;
	    calls: number;
	    attached?: number;
	}
	export interface ClientChange {
	    name: string;
	    title: string;
	    path: string;
	    scope: string;
	    command?: string;
	    changed: boolean;
	    diff: string;
	    backup?: string;
	    moved: string[];
	    skipped: string[];
	    warnings: string[];
	}
	
	
	export interface KeptResult {
	    id: string;
	    lines: number;
	    chars: number;
	    shown?: number;
	    seen?: number;
	    dropped?: number;
	}
	export interface SkillFinding {
	    where: string;
	    reason: string;
	    excerpt: string;
	}
	export interface SkillFile {
	    path: string;
	    size: number;
	}
	export interface LocalSkill {
	    server: string;
	    name: string;
	    description: string;
	    folder: string;
	    source: string;
	    app: string;
	    scope: string;
	    alsoIn?: string[];
	    size: number;
	    files: SkillFile[];
	    leftOut?: string[];
	    findings?: SkillFinding[];
	    warnings?: string[];
	    state: string;
	    changes?: string[];
	    previous?: string;
	    current?: string;
	    on: boolean;
	    trusted: boolean;
	    own: boolean;
	}
	export interface SkillFolder {
	    server: string;
	    dir: string;
	    app: string;
	    scope: string;
	    exists: boolean;
	    trusted: boolean;
	    added: boolean;
	}
	export interface MalformedSkill {
	    folder: string;
	    source: string;
	    reason: string;
	}
	export interface LocalSkillList {
	    skills: LocalSkill[];
	    malformed: MalformedSkill[];
	    folders: SkillFolder[];
	}
	export interface LogEntry {
	    level: string;
	    logger: string;
	    text: string;
	}
	
	export interface TaskView {
	    id: string;
	    status: string;
	    message: string;
	}
	export interface ToolCallView {
	    id: string;
	    index: number;
	    name: string;
	    server: string;
	    tool: string;
	    args: string;
	    status: string;
	    result?: CallResult;
	    isError: boolean;
	    error: string;
	    durationMs: number;
	    approvalId: string;
	    parent?: string;
	    steps?: ToolCallView[];
	    task?: TaskView;
	    capped?: KeptResult;
	}
	export interface MessageView {
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
	    createdAt: string;
	    toolCalls: ToolCallView[];
	    asked?: boolean;
	}
	export interface MessagePageView {
	    messages: MessageView[];
	    hasMore: boolean;
	    hasNewer?: boolean;
	}
	
	export interface OfferedTool {
	    name: string;
	    description?: string;
	}
	export interface ProfileOverride {
	    url?: string;
	    args?: string[];
	    env?: Record<string, string>;
	    headers?: Record<string, string>;
	}
	export interface ProviderModel {
	    id: string;
	    name: string;
	    contextWindow?: number;
	}
	export interface RegistryAsk {
	    key: string;
	    kind: string;
	    description: string;
	    required: boolean;
	    secret: boolean;
	    default: string;
	    choices: string[];
	}
	export interface Sampling {
	    mode?: string;
	    perChat?: number;
	    perMinute?: number;
	    outsideCalls?: boolean;
	}
	export interface SecretRow {
	    name: string;
	    masked: string;
	    usedBy: string[];
	}
	export interface Skill {
	    server: string;
	    name: string;
	    description: string;
	    uri: string;
	    files: number;
	    size: number;
	    dynamic?: boolean;
	    on: boolean;
	}
	export interface ServerSkills {
	    offered: boolean;
	    skills: Skill[];
	    invalid?: string[];
	}
	export interface SharedApp {
	    name: string;
	    title?: string;
	    pid: number;
	    since: string;
	    calls: number;
	}
	
	
	
	
	export interface SkillPreview {
	    name: string;
	    description: string;
	    from: string;
	    files: SkillFile[];
	    size: number;
	    leftOut?: string[];
	    findings?: SkillFinding[];
	    warnings?: string[];
	    frontmatter: string;
	    exists: boolean;
	}
	
	export interface TemplateParam {
	    name: string;
	    title: string;
	    description: string;
	    type: string;
	    default: string;
	    enum: string[];
	    required: boolean;
	    secret: boolean;
	    format: string;
	}
	export interface TestStep {
	    name: string;
	    ms: number;
	    error: string;
	}
	export interface TestReport {
	    server: string;
	    ok: boolean;
	    steps: TestStep[];
	    totalMs: number;
	    transport: string;
	    serverName: string;
	    version: string;
	    protocol: string;
	    tools: string[];
	    toolCount: number;
	    appOnly: string[];
	    duplicates: string[];
	    summary: string;
	    failed: string;
	    error: string;
	    stderr: string[];
	}
	
	export interface TokenUsage {
	    inputTokens: number;
	    outputTokens: number;
	}
	
	export interface ToolMode {
	    mode: string;
	    by: string;
	    default: string;
	    window: number;
	    codeWindow: number;
	}
	export interface ToolSearch {
	    on: boolean;
	    by: string;
	    tools: number;
	    tokens: number;
	    window: number;
	    windowKnown: boolean;
	    share: number;
	    above: number;
	    reason: string;
	}
	export interface WarningView {
	    kind: string;
	    reason: string;
	    where: string;
	    excerpt: string;
	}
	export interface WorkspaceInfo {
	    root: string;
	    fresh: boolean;
	    sessions: string[];
	}

}

