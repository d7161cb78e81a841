-- v6: the search index is brought up to date after a write instead of in
-- it. A chat step commits two or three times, and each commit that changed
-- the index wrote an FTS5 segment of its own and read the changed row back
-- to drop its old terms (about 0.35 ms of a step, BENCHMARKS.md). Now a
-- write only notes the message in search_pending, in the same transaction,
-- so nothing is lost to a crash; the store indexes the noted messages in
-- one transaction a moment later, before any Search, and when it closes
-- (see Store.indexPending). Chat titles change rarely and stay indexed by
-- their triggers (v2).
--
-- The triggers test for a note before adding one rather than INSERT OR
-- IGNORE: a trigger's statements take the conflict policy of the statement
-- that fired them when it has one, and the tool calls' upsert (ON CONFLICT
-- DO UPDATE) passes its own, so a call saved again with its server known
-- failed on the message's note.
CREATE TABLE search_pending (
  pk INTEGER PRIMARY KEY -- messages.pk
) STRICT;

DROP TRIGGER messages_search_insert;
DROP TRIGGER messages_search_update;
DROP TRIGGER messages_search_delete;
DROP TRIGGER tool_calls_search_insert;
DROP TRIGGER tool_calls_search_update;
DROP TRIGGER tool_calls_search_delete;

CREATE TRIGGER messages_search_insert AFTER INSERT ON messages BEGIN
  INSERT INTO search_pending (pk) SELECT new.pk
  WHERE NOT EXISTS (SELECT 1 FROM search_pending WHERE pk = new.pk);
END;

-- Streaming updates often change only the status or usage: skip re-indexing.
CREATE TRIGGER messages_search_update AFTER UPDATE OF text ON messages
WHEN old.text IS NOT new.text BEGIN
  INSERT INTO search_pending (pk) SELECT new.pk
  WHERE NOT EXISTS (SELECT 1 FROM search_pending WHERE pk = new.pk);
END;

-- A deleted message leaves the index at once (rewind, a chat deleted).
CREATE TRIGGER messages_search_delete AFTER DELETE ON messages BEGIN
  DELETE FROM search WHERE rowid = old.pk;
  DELETE FROM search_pending WHERE pk = old.pk;
END;

-- A message's tools column lists its calls: note the message again. When
-- the message itself is being deleted the subquery finds nothing, or its
-- own trigger drops the note.
CREATE TRIGGER tool_calls_search_insert AFTER INSERT ON tool_calls BEGIN
  INSERT INTO search_pending (pk) SELECT pk FROM messages WHERE id = new.message_id
  AND pk NOT IN (SELECT pk FROM search_pending);
END;

CREATE TRIGGER tool_calls_search_update AFTER UPDATE OF server, tool ON tool_calls
WHEN old.server IS NOT new.server OR old.tool IS NOT new.tool BEGIN
  INSERT INTO search_pending (pk) SELECT pk FROM messages WHERE id = new.message_id
  AND pk NOT IN (SELECT pk FROM search_pending);
END;

CREATE TRIGGER tool_calls_search_delete AFTER DELETE ON tool_calls BEGIN
  INSERT INTO search_pending (pk) SELECT pk FROM messages WHERE id = old.message_id
  AND pk NOT IN (SELECT pk FROM search_pending);
END;
