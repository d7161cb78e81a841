-- v4: what keeps a long chat within its model's context across runs.
-- est_tokens is the engine's estimate of the request an assistant message
-- answered (with input_tokens, what the provider reported for it, it
-- calibrates the estimate when the chat is opened again); covers is, on a
-- summary, the seq of the last message it replaces (0: every message
-- before it), so the turn in progress when it was written stays verbatim.
ALTER TABLE messages ADD COLUMN est_tokens INTEGER NOT NULL DEFAULT 0;
ALTER TABLE messages ADD COLUMN covers INTEGER NOT NULL DEFAULT 0;
