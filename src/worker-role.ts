// Imported first by worker.ts: feature modules decide at import time whether to register queue
// processors, so the role must be declared before any of them is loaded.
import { setProcessRole } from './config/process-role';

setProcessRole('worker');
