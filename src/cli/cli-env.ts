// Imported first by the CLI entry: feature modules decide at import time whether to register queue
// processors, so the CLI's default (none; commands that need one attach it themselves) must be set
// before any of them is loaded.
process.env.QUEUE_PROCESSORS ??= 'false';
