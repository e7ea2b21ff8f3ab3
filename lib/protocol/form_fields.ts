/**
 * The chat's HTML form as a browser without JavaScript posts it: the composer and the related
 * questions under an answer write this field, the server's form handler reads it.
 */

/** The form's field that holds the question. */
export const QUESTION_FIELD = "text";
