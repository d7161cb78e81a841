-- v2: full-text search over chat titles, message text and tool names.
--
-- One FTS5 table; a row per chat (rowid = -chats.pk, title column) and a row
-- per message (rowid = messages.pk, body and tools columns), kept in sync by
-- the triggers below. Tool names are "server tool" pairs; the tokenizer
-- splits server__tool names at the underscores, so "read_file" is a phrase.
CREATE VIRTUAL TABLE search USING fts5 (
  title,
  body,
  tools,
  tokenize = 'unicode61 remove_diacritics 2'
);

CREATE TRIGGER chats_search_insert AFTER INSERT ON chats BEGIN
  INSERT INTO search (rowid, title) VALUES (-new.pk, new.title);
END;

CREATE TRIGGER chats_search_update AFTER UPDATE OF title ON chats
WHEN old.title IS NOT new.title BEGIN
  UPDATE search SET title = new.title WHERE rowid = -new.pk;
END;

CREATE TRIGGER chats_search_delete AFTER DELETE ON chats BEGIN
  DELETE FROM search WHERE rowid = -old.pk;
END;

CREATE TRIGGER messages_search_insert AFTER INSERT ON messages BEGIN
  INSERT INTO search (rowid, body, tools) VALUES (new.pk, new.text, '');
END;

-- Streaming updates often change only the status or usage: skip re-indexing.
CREATE TRIGGER messages_search_update AFTER UPDATE OF text ON messages
WHEN old.text IS NOT new.text BEGIN
  UPDATE search SET body = new.text WHERE rowid = new.pk;
END;

CREATE TRIGGER messages_search_delete AFTER DELETE ON messages BEGIN
  DELETE FROM search WHERE rowid = old.pk;
END;

CREATE TRIGGER tool_calls_search_insert AFTER INSERT ON tool_calls BEGIN
  UPDATE search
  SET tools = coalesce((SELECT group_concat(server || ' ' || tool, ' ') FROM tool_calls WHERE message_id = new.message_id), '')
  WHERE rowid = (SELECT pk FROM messages WHERE id = new.message_id);
END;

CREATE TRIGGER tool_calls_search_update AFTER UPDATE OF server, tool ON tool_calls
WHEN old.server IS NOT new.server OR old.tool IS NOT new.tool BEGIN
  UPDATE search
  SET tools = coalesce((SELECT group_concat(server || ' ' || tool, ' ') FROM tool_calls WHERE message_id = new.message_id), '')
  WHERE rowid = (SELECT pk FROM messages WHERE id = new.message_id);
END;

-- When a message is deleted its tool calls go first (cascade) and the
-- subquery finds no message: nothing to update, the message's row goes next.
CREATE TRIGGER tool_calls_search_delete AFTER DELETE ON tool_calls BEGIN
  UPDATE search
  SET tools = coalesce((SELECT group_concat(server || ' ' || tool, ' ') FROM tool_calls WHERE message_id = old.message_id), '')
  WHERE rowid = (SELECT pk FROM messages WHERE id = old.message_id);
END;

-- Index what v1 databases already hold.
INSERT INTO search (rowid, title) SELECT -pk, title FROM chats;
INSERT INTO search (rowid, body, tools)
SELECT m.pk, m.text,
       coalesce((SELECT group_concat(t.server || ' ' || t.tool, ' ') FROM tool_calls t WHERE t.message_id = m.id), '')
FROM messages m;
