// Validates a SARIF log against the official SARIF 2.1.0 JSON schema (the copy that
// @microsoft/jest-sarif ships: sarif-2.1.0-rtm.5.json, a draft-04 schema), with Ajv 6,
// which reads draft-04 (jest-sarif depends on it). Why not sarif-multitool: a .NET tool
// of ~100 MB; the schema check is what its `validate` command does first.
//   node validate.js LOG.sarif      (NODE_PATH: the install's node_modules)
// Prints "valid: N results" or the schema errors, and exits 1 on errors.
const fs = require("fs");
const path = require("path");
const root = path.dirname(require.resolve("@microsoft/jest-sarif/package.json"));
// Ajv 6 as jest-sarif's own dependency (nested or hoisted, wherever npm put it).
const Ajv = require(require.resolve("ajv", {paths: [root]}));
const ajv = new Ajv({schemaId: "id", allErrors: true, unknownFormats: "ignore", logger: false});
ajv.addMetaSchema(require(require.resolve("ajv/lib/refs/json-schema-draft-04.json",
                                          {paths: [root]})));
const schema = JSON.parse(fs.readFileSync(path.join(root, "lib", "schemas",
                                                    "sarif-2.1.0-rtm.5.json"), "utf8"));
const log = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
if (!ajv.validate(schema, log)) {
  console.log("invalid:");
  for (const e of ajv.errors) console.log("  " + e.dataPath + " " + e.message);
  process.exit(1);
}
let n = 0;
for (const run of log.runs) n += run.results.length;
console.log("valid: " + n + " results");
