// API bodies, queries and answers of the applications calls (filled in with the applications service).
export {};
