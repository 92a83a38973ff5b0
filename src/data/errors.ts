/**
 * DataError: the input table (or a row sent for prediction) cannot be read as
 * given. The server turns it into a 400/422 problem with `errors: [{ path, message }]`,
 * so the message is written for the person who sent the data, and `path` points
 * at the offending place: `rows[3].密度`, `header`, `line 7`, `column_types.x`, `body`.
 */
export class DataError extends Error {
  constructor(
    message: string,
    public readonly path?: string,
  ) {
    super(message);
    this.name = "DataError";
  }
}

/**
 * The table is well-formed but larger than the caller allowed (rows × columns
 * over `maxCells`). Raised while reading so that an oversized upload fails before
 * it is fully materialised; the server answers 413.
 */
export class DataTooLargeError extends DataError {
  constructor(message: string, path?: string) {
    super(message, path);
    this.name = "DataTooLargeError";
  }
}
