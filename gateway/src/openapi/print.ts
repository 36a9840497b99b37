import { ROUTES } from '../routes/table.js';
import { buildOpenApi } from './document.js';

/** Prints the OpenAPI document of the route table (for linters and the SDK generator): node dist/openapi/print.js */
process.stdout.write(`${JSON.stringify(buildOpenApi(ROUTES), null, 2)}\n`);
