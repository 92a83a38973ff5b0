/** npm run openapi: regenerates openapi/openapi.json from the routes. */
import { writeFileSync } from "node:fs";
import { generateOpenApi } from "./openapi-document.js";

const path = new URL("../openapi/openapi.json", import.meta.url);
writeFileSync(path, await generateOpenApi());
console.log(`wrote ${path.pathname}`);
