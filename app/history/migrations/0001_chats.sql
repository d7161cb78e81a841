-- v1: chats, their messages and the tool calls made while answering.
--
-- Every table has an INTEGER PRIMARY KEY so rowids are stable (VACUUM may
-- renumber implicit rowids); the search index (v2) is keyed by them. Ids the
-- app sees are the TEXT id columns. Times are Unix milliseconds, 0 = unset.
PRAGMA application_id = 1398227528;

CREATE TABLE chats (
  pk         INTEGER PRIMARY KEY,
  id         TEXT    NOT NULL UNIQUE,
  title      TEXT    NOT NULL DEFAULT '',
  provider   TEXT    NOT NULL DEFAULT '',
  model      TEXT    NOT NULL DEFAULT '',
  agent      TEXT    NOT NULL DEFAULT '',
  settings   TEXT,   -- opaque JSON, NULL when unset
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;

-- ListChats: most recent first.
CREATE INDEX chats_by_update ON chats (updated_at DESC, pk DESC);

CREATE TABLE messages (
  pk            INTEGER PRIMARY KEY,
  id            TEXT    NOT NULL UNIQUE,
  chat_id       TEXT    NOT NULL REFERENCES chats (id) ON DELETE CASCADE,
  seq           INTEGER NOT NULL,
  role          TEXT    NOT NULL,
  text          TEXT    NOT NULL DEFAULT '',
  status        TEXT    NOT NULL,
  error         TEXT    NOT NULL DEFAULT '',
  model         TEXT    NOT NULL DEFAULT '',
  input_tokens  INTEGER NOT NULL DEFAULT 0,
  output_tokens INTEGER NOT NULL DEFAULT 0,
  created_at    INTEGER NOT NULL,
  UNIQUE (chat_id, seq)
) STRICT;

CREATE TABLE tool_calls (
  pk          INTEGER PRIMARY KEY,
  message_id  TEXT    NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
  call_id     TEXT    NOT NULL,
  ord         INTEGER NOT NULL, -- order of first save within the message
  server      TEXT    NOT NULL DEFAULT '',
  tool        TEXT    NOT NULL DEFAULT '',
  arguments   TEXT,   -- JSON
  result      TEXT,   -- the MCP CallToolResult JSON
  is_error    INTEGER NOT NULL DEFAULT 0,
  status      TEXT    NOT NULL,
  started_at  INTEGER NOT NULL DEFAULT 0,
  duration_ms INTEGER NOT NULL DEFAULT 0,
  UNIQUE (message_id, call_id)
) STRICT;
