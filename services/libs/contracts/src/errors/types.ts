export interface LocalizedText {
  de: string;
  uk: string;
}
/** An error code's default HTTP status and its message in both languages ({name} placeholders). */
export interface ErrorDefinition extends LocalizedText {
  status: number;
}
