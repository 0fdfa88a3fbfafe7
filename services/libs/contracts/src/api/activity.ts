// API bodies, queries and answers of the activity calls (filled in with the activity service).
export {};
