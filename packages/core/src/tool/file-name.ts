/**
 * A plain file name (`report.pdf`): 1–255 characters, none of them a path separator or a control character, and not
 * `.` or `..`. What a document part's `filename` must be (the model reads it, and a UI may save the file under it).
 */
export const PLAIN_FILE_NAME: RegExp = /^(?!\.\.?$)[^/\\\p{Cc}]{1,255}$/u;
