-- v7: search finds words in the tool calls' arguments and results too (a
-- path the model passed, a word a file it read holds), in a column of their
-- own, calls, weighed below the message's text: results are long and wordy.
--
-- FTS5 tables take no new column, so the index is made anew: chat titles
-- at once, every message noted for the store's indexer (Store.indexPending),
-- which indexes them before the next search. A call's arguments and result
-- are written after its message (the result with the next step), so a
-- change to them notes the message again.
DROP TABLE search;

CREATE VIRTUAL TABLE search USING fts5 (
  title,
  body,
  tools,
  calls,
  tokenize = 'unicode61 remove_diacritics 2'
);

INSERT INTO search (rowid, title) SELECT -pk, title FROM chats;

INSERT INTO search_pending (pk) SELECT pk FROM messages
WHERE pk NOT IN (SELECT pk FROM search_pending);

DROP TRIGGER tool_calls_search_update;

CREATE TRIGGER tool_calls_search_update AFTER UPDATE OF server, tool, arguments, result ON tool_calls
WHEN old.server IS NOT new.server OR old.tool IS NOT new.tool
  OR old.arguments IS NOT new.arguments OR old.result IS NOT new.result BEGIN
  INSERT INTO search_pending (pk) SELECT pk FROM messages WHERE id = new.message_id
  AND pk NOT IN (SELECT pk FROM search_pending);
END;
