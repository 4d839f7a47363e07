import { Outlet, ScrollRestoration } from 'react-router';
import { Footer } from './footer';

export function Layout() {
  return (
    <div className="app">
      <main className="app-main" id="main">
        <Outlet />
      </main>
      <Footer />
      <ScrollRestoration />
    </div>
  );
}
