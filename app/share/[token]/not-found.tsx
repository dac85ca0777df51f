import { LinkInvalid } from "@/components/share/link-invalid";

// Rendered with HTTP 404 when the token is unknown, expired or revoked (the page calls notFound()).
export default function ShareNotFound() {
  return <LinkInvalid />;
}
