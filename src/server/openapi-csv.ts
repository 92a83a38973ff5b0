/**
 * CSV alternatives the route schemas cannot state (zod describes one JSON body): a
 * text/csv body on predict, added to the generated document as withCsvUpload does for
 * uploads. The CSV answers (predict and a dataset's rows with Accept: text/csv) are
 * described on their 200 responses rather than listed as a second media type: typed
 * clients (openapi-fetch) would otherwise see every answer as `string | object`.
 */
type Operation = { requestBody?: { content?: Record<string, unknown> }; responses?: Record<string, { description?: string }> };
type Doc = { paths?: Record<string, Record<string, Operation>> };

const CSV_BODY = {
  schema: {
    type: "string",
    description: "CSV with a header row naming features (UTF-8, optional BOM, RFC 4180 quoting, CRLF or LF); an empty cell is missing. At most XIGUA_PREDICT_MAX_ROWS rows (413).",
  },
};

export function withCsvAlternatives<T>(doc: T): T {
  const paths = (doc as Doc).paths ?? {};
  const predict = paths["/v1/models/{id}/predict"]?.post;
  if (predict?.requestBody?.content) predict.requestBody.content["text/csv"] = CSV_BODY;
  const predicted = predict?.responses?.["200"];
  if (predicted) {
    predicted.description =
      "The predictions as JSON; for a text/csv body with Accept: text/csv, text/csv instead: the body's columns, then prediction and one p_<class> per class (projection_<j> for projections).";
  }
  const rows = paths["/v1/datasets/{id}/rows"]?.get?.responses?.["200"];
  if (rows) rows.description = "A page of rows as JSON; with Accept: text/csv, text/csv instead: a header row, then the rows (missing cells empty), the whole table unless offset or limit is given.";
  return doc;
}
