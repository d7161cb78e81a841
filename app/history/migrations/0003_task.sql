-- v3: a tool call run as an MCP task keeps the task's id, last status and
-- status message (a JSON object), so a reopened chat shows how it ended.
ALTER TABLE tool_calls ADD COLUMN task TEXT;
