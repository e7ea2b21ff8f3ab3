/** Names shared by the server renderer and the browser boot script. */

/** Attribute that marks an island's root element; its value is the island name. */
export const ISLAND_ATTR = "data-island";
/** Attribute holding the island instance's index into the page's props array. */
export const ISLAND_INDEX_ATTR = "data-island-index";
/** Id of the `<script type="application/json">` holding the page's island props. */
export const PROPS_SCRIPT_ID = "__island_props";
