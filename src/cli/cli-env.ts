// Imported first by the CLI entry: feature modules decide at import time whether to register queue
// processors, so the CLI's default (none; commands that need one attach it themselves) must be set
// before any of them is loaded. It comes before `.env` is read (the next import), so a
// QUEUE_PROCESSORS meant for the API there does not turn the CLI into a worker; the real environment can.
process.env.QUEUE_PROCESSORS ??= 'false';
