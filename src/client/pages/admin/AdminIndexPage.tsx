import { Navigate } from 'react-router-dom';

/** /admin goes to the admin login (SPEC §2). */
export default function AdminIndexPage() {
  return <Navigate to="/admin/login" replace />;
}
