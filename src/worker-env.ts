// Imported by dist/worker.js before any feature module: modules decide at import time whether to
// register queue processors, and a worker always does, whatever QUEUE_PROCESSORS says (it is set
// to false on the API processes when workers are scaled out).
process.env.MP_WORKER = '1';
