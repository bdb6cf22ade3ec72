import { Navigate } from 'react-router-dom';

/** /admin goes to the admin login. */
export default function AdminIndexPage() {
  return <Navigate to="/admin/login" replace />;
}
