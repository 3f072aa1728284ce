// SPDX-License-Identifier: GPL-2.0-or-later
// eigen_peers.cpp -- Eigen's solvers on a reduced system written by
// export_reduced.py: CG with IncompleteCholesky (AMD order, Eigen's own
// shift on breakdown), CG with Jacobi, SimplicialLDLT (AMD). Each solve is
// cold (every structure built from A~ in memory; reading excluded), from
// the guess y0, the iterative ones to |b~ - A~ y| <= tol |b~| (Eigen's
// CG stops on that norm of its updated residual; the true one is printed).
// Prints one line per solver: name, median seconds over the repeats,
// iterations, true relative residual.
//     eigen_peers DIR TOL REPEATS
#include <Eigen/IterativeLinearSolvers>
#include <Eigen/SparseCholesky>
#include <unsupported/Eigen/SparseExtra>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

typedef Eigen::SparseMatrix<double> SpMat;
typedef Eigen::VectorXd Vec;

static double now()
{
    using clock = std::chrono::steady_clock;
    return std::chrono::duration<double>(clock::now().time_since_epoch()).count();
}

static double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

struct Outcome {
    double seconds;
    long iterations;
    Vec y;
};

static void report(const char *name, const std::vector<Outcome> &runs,
                   const SpMat &A, const Vec &b)
{
    std::vector<double> t;
    for (const Outcome &o : runs)
        t.push_back(o.seconds);
    const Outcome &last = runs.back();
    double res = (b - A * last.y).norm() / b.norm();
    std::printf("%-28s %10.4f %8ld %10.2e\n", name, median(t), last.iterations, res);
}

template <class Precond>
static Outcome cg(const SpMat &A, const Vec &b, const Vec &y0, double tol)
{
    double t = now();
    Eigen::ConjugateGradient<SpMat, Eigen::Lower | Eigen::Upper, Precond> s;
    s.setTolerance(tol);
    s.setMaxIterations(100000);
    s.compute(A);
    Vec y = s.solveWithGuess(b, y0);
    return {now() - t, static_cast<long>(s.iterations()), y};
}

static Outcome ldlt(const SpMat &A, const Vec &b)
{
    double t = now();
    Eigen::SimplicialLDLT<SpMat> s(A);
    Vec y = s.solve(b);
    return {now() - t, 0, y};
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        std::fprintf(stderr, "usage: eigen_peers DIR TOL REPEATS\n");
        return 2;
    }
    std::string dir = argv[1];
    double tol = std::atof(argv[2]);
    int repeats = std::max(1, std::atoi(argv[3]));
    SpMat A;
    Vec b, y0;
    if (!Eigen::loadMarket(A, dir + "/A.mtx") ||
        !Eigen::loadMarketVector(b, dir + "/b.mtx") ||
        !Eigen::loadMarketVector(y0, dir + "/y0.mtx")) {
        std::fprintf(stderr, "eigen_peers: cannot read %s/{A,b,y0}.mtx\n", dir.c_str());
        return 1;
    }
    typedef Eigen::IncompleteCholesky<double, Eigen::Lower, Eigen::AMDOrdering<int>> IC;
    std::vector<Outcome> ic, jacobi, direct;
    for (int r = 0; r < repeats; r++) {
        ic.push_back(cg<IC>(A, b, y0, tol));
        jacobi.push_back(cg<Eigen::DiagonalPreconditioner<double>>(A, b, y0, tol));
        direct.push_back(ldlt(A, b));
    }
    report("eigen CG + IncompleteCholesky", ic, A, b);
    report("eigen CG + Jacobi", jacobi, A, b);
    report("eigen SimplicialLDLT", direct, A, b);
    return 0;
}
