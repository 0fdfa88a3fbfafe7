// The moderation screen's public entry: what other screens use of it (frontend/README.md).
export { formatPhone, whatsappLink } from './lib/contact';
