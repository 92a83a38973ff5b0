/**
 * CSV alternatives the route schemas cannot state (zod describes one JSON body and one
 * JSON answer): a text/csv body and answer on predict, a text/csv answer on a
 * dataset's rows. Added to the generated document, as withCsvUpload does for uploads.
 */
type Content = Record<string, unknown>;
type Operation = { requestBody?: { content?: Content }; responses?: Record<string, { content?: Content }> };
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
  const predicted = predict?.responses?.["200"]?.content;
  if (predicted) {
    predicted["text/csv"] = {
      schema: { type: "string", description: "With a text/csv body and Accept: text/csv: the body's columns, then prediction and one p_<class> per class (projection_<j> for projections)." },
    };
  }
  const rows = paths["/v1/datasets/{id}/rows"]?.get?.responses?.["200"]?.content;
  if (rows) rows["text/csv"] = { schema: { type: "string", description: "With Accept: text/csv: a header row, then the rows (missing cells empty); the whole table unless offset or limit is given." } };
  return doc;
}
