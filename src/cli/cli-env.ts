// Imported first by the CLI entry (and the OpenAPI export): feature modules decide at import time
// whether to register queue processors, so the role (none by default; commands that need one
// attach it themselves) must be declared before any of them is loaded.
import { setProcessRole } from '../config/process-role';

setProcessRole('cli');
