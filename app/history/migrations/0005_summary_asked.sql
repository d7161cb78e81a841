-- v5: asked is, on a summary, 1 when the user asked for it (Compact now)
-- rather than the chat nearing its model's context window, so the chat
-- says which of the two it was.
ALTER TABLE messages ADD COLUMN asked INTEGER NOT NULL DEFAULT 0;
