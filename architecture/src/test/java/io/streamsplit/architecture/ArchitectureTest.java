package io.streamsplit.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.methods;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.flink.annotation.Internal;
import org.apache.flink.annotation.PublicEvolving;
import org.jspecify.annotations.NullMarked;
import org.junit.jupiter.api.Test;

/**
 * The directions packages and modules may depend on each other, checked on the compiled main classes
 * of every module. The connector and the pipeline API travel to Flink clusters without Spring; the
 * Spring side is layered with {@code diagnostics} at the bottom and {@code actuate} on top; the
 * connector's API types never reach into its internals.
 */
class ArchitectureTest {

    private static final String BOOT = "io.streamsplit.boot.autoconfigure";
    /** The runtime the auto-configuration wires: {@code job}, {@code actuate}, {@code flink.embedded}, {@code flink.remote}. */
    private static final String RUNTIME = "io.streamsplit.boot";

    /** The runtime packages: everything under {@code io.streamsplit.boot} but the auto-configuration and the test kit. */
    private static final String[] RUNTIME_PACKAGES = {
        RUNTIME + ".actuate..",
        RUNTIME + ".config..",
        RUNTIME + ".flink..",
        RUNTIME + ".job..",
        RUNTIME + ".kafka..",
        RUNTIME + ".sql..",
        RUNTIME + ".tracing.."
    };

    private static final String SOURCE = "io.streamsplit.connector.kafka.source";
    private static final String KIT = "io.streamsplit.boot.test";
    private static final String FORMAT = "io.streamsplit.connector.kafka.format";
    private static final List<String> INTERNAL =
            List.of(SOURCE + ".enumerator..", SOURCE + ".reader..", SOURCE + ".split..");

    /** The connector's classes that put its internals together (and their nested classes). */
    private static final String ASSEMBLY = SOURCE.replace(".", "\\.")
            + "\\.(StreamSplitKafkaSource|StreamSplitKafkaSourceBuilder|KafkaSourceStream)(\\$.*)?";

    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.streamsplit");

    @Test
    void everyModuleIsImported() {
        assertThat(CLASSES.stream()
                        .map(JavaClass::getPackageName)
                        .map(p -> p.split("\\.")[2])
                        .distinct())
                .contains("connector", "pipeline", "boot", "embedded", "flink", "sample");
    }

    @Test
    void theConnectorAndThePipelineApiNeverUseSpring() {
        noClasses()
                .that()
                .resideInAnyPackage("io.streamsplit.connector..", "io.streamsplit.pipeline..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("org.springframework..")
                .because("they are loaded on Flink's TaskManagers, where there is no Spring")
                .check(CLASSES);
    }

    @Test
    void nothingDependsOnTheSample() {
        noClasses()
                .that()
                .resideOutsideOfPackage("io.streamsplit.sample..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("io.streamsplit.sample..")
                .check(CLASSES);
    }

    @Test
    void theTestKitIsForTestsOnly() {
        assertThat(CLASSES.containPackage(KIT)).as("the test kit is imported").isTrue();
        noClasses()
                .that()
                .resideOutsideOfPackage(KIT + "..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage(KIT + "..")
                .because("applications use it with scope test, and nothing in main code may need it")
                .check(CLASSES);
    }

    @Test
    void actuateIsALeaf() {
        noClasses()
                .that()
                .resideInAnyPackage(BOOT + "..", RUNTIME + ".job..", RUNTIME + ".flink..", RUNTIME + ".kafka..")
                .and()
                .resideOutsideOfPackages(RUNTIME + ".actuate..", BOOT + ".actuate..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(RUNTIME + ".actuate..", BOOT + ".actuate..")
                .check(CLASSES);
    }

    /**
     * As in Spring Boot: the auto-configuration packages wire, the runtime they wire (the job's lifecycle,
     * the MiniCluster, jar shipping, health and endpoints) lives outside them and holds no configuration
     * class of its own.
     */
    @Test
    void configurationClassesLiveInTheAutoConfigurationPackagesOnly() {
        noClasses()
                .that()
                .resideInAnyPackage(RUNTIME_PACKAGES)
                .should()
                .beAnnotatedWith("org.springframework.context.annotation.Configuration")
                .orShould()
                .beAnnotatedWith("org.springframework.boot.autoconfigure.AutoConfiguration")
                .orShould()
                .beAnnotatedWith("org.springframework.boot.context.properties.ConfigurationProperties")
                .check(CLASSES);
    }

    @Test
    void noPackageCycles() {
        slices().matching("io.streamsplit.boot.(**)").should().beFreeOfCycles().check(CLASSES);
        slices().matching(SOURCE + ".(*)..").should().beFreeOfCycles().check(CLASSES);
    }

    @Test
    void springSidePackagesDependOnlyDownward() {
        layeredArchitecture()
                .consideringOnlyDependenciesInLayers()
                .layer("root")
                .definedBy(BOOT)
                .layer("actuate.configuration")
                .definedBy(BOOT + ".actuate..")
                .layer("actuate")
                .definedBy(RUNTIME + ".actuate..")
                .layer("job")
                .definedBy(
                        RUNTIME + ".job",
                        RUNTIME + ".job.cluster..",
                        RUNTIME + ".job.failure..",
                        RUNTIME + ".job.replica..")
                .layer("job.state")
                .definedBy(RUNTIME + ".job.state..")
                .layer("sql")
                .definedBy(RUNTIME + ".sql..")
                .layer("kafka.configuration")
                .definedBy(BOOT + ".kafka")
                .layer("kafka.embedded")
                .definedBy(BOOT + ".kafka.embedded..")
                .layer("kafka.format")
                .definedBy(BOOT + ".kafka.format..")
                .layer("kafka.connection")
                .definedBy(BOOT + ".kafka.connection..")
                .layer("kafka")
                .definedBy(RUNTIME + ".kafka..")
                .layer("flink.configuration")
                .definedBy(BOOT + ".flink")
                .layer("flink.embedded")
                .definedBy(RUNTIME + ".flink.embedded..")
                .layer("flink.remote")
                .definedBy(RUNTIME + ".flink.remote..")
                .layer("flink.rest")
                .definedBy(RUNTIME + ".flink.rest..")
                .layer("diagnostics")
                .definedBy(BOOT + ".diagnostics..")
                .layer("config")
                .definedBy(RUNTIME + ".config..")
                .whereLayer("actuate.configuration")
                .mayNotBeAccessedByAnyLayer()
                .whereLayer("actuate")
                .mayOnlyBeAccessedByLayers("actuate.configuration")
                .whereLayer("root")
                .mayOnlyBeAccessedByLayers("actuate.configuration", "actuate")
                .whereLayer("job")
                .mayOnlyBeAccessedByLayers("root", "flink.configuration", "actuate.configuration", "actuate")
                .whereLayer("job.state")
                .mayOnlyBeAccessedByLayers("root", "job", "flink.configuration", "actuate.configuration", "actuate")
                .whereLayer("sql")
                .mayOnlyBeAccessedByLayers("root")
                .whereLayer("kafka.embedded")
                .mayOnlyBeAccessedByLayers("root")
                .whereLayer("kafka.configuration")
                .mayOnlyBeAccessedByLayers("root", "job", "sql", "kafka.embedded", "actuate.configuration", "actuate")
                .whereLayer("kafka.format")
                .mayOnlyBeAccessedByLayers("root", "kafka.configuration", "sql")
                .whereLayer("kafka.connection")
                .mayOnlyBeAccessedByLayers("root", "job", "kafka.configuration", "actuate.configuration", "actuate")
                .whereLayer("flink.configuration")
                .mayOnlyBeAccessedByLayers("root", "job", "kafka.configuration", "actuate.configuration", "actuate")
                .whereLayer("flink.embedded")
                .mayOnlyBeAccessedByLayers("root", "actuate.configuration", "actuate")
                .whereLayer("flink.rest")
                .mayOnlyBeAccessedByLayers("root", "job", "actuate.configuration", "actuate")
                .whereLayer("flink.remote")
                .mayOnlyBeAccessedByLayers(
                        "root",
                        "job",
                        "kafka.configuration",
                        "kafka.format",
                        "flink.configuration",
                        "actuate.configuration",
                        "actuate")
                .whereLayer("diagnostics")
                .mayNotBeAccessedByAnyLayer()
                .check(CLASSES);
    }

    /**
     * The runtime (the job's lifecycle, the Flink clusters, the Kafka side, Actuator's endpoints, SQL) does not
     * reach into the auto-configuration, as in Spring Boot, where library code lives outside the
     * auto-configuration packages and they only wire: the runtime takes values and small interfaces
     * ({@code KafkaSources}, {@code KafkaSinks}, {@code KafkaClients}, {@code JobSettings}), never a
     * {@code *Properties} class.
     */
    @Test
    void theRuntimeDoesNotReachIntoTheAutoConfiguration() {
        noClasses()
                .that()
                .resideInAnyPackage(RUNTIME_PACKAGES)
                .should()
                .dependOnClassesThat()
                .resideInAPackage(BOOT + "..")
                .check(CLASSES);
    }

    /**
     * The connector's root package is its user API: value types and extension points that the
     * internals use, and the source with its builder that put the internals together. Only the
     * latter reach into {@code enumerator}, {@code reader} and {@code split}, so the API never
     * depends on the internals that depend on it.
     */
    @Test
    void theConnectorsVocabularyNeverReachesIntoItsInternals() {
        noClasses()
                .that()
                .resideInAPackage(SOURCE)
                .and()
                .haveNameNotMatching(ASSEMBLY)
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(INTERNAL.toArray(String[]::new))
                .check(CLASSES);
        noClasses()
                .that()
                .resideInAnyPackage(INTERNAL.toArray(String[]::new))
                .should()
                .dependOnClassesThat()
                .haveSimpleName("StreamSplitKafkaSource")
                .orShould()
                .dependOnClassesThat()
                .haveSimpleName("StreamSplitKafkaSourceBuilder")
                .check(CLASSES);
    }

    @Test
    void theConnectorsApiIsAnnotatedAndItsInternalsAreMarkedInternal() {
        classes()
                .that()
                .resideInAnyPackage(SOURCE, SOURCE + ".metrics", SOURCE + ".savepoint", SOURCE + ".option", FORMAT)
                .and()
                .arePublic()
                .and()
                .areTopLevelClasses()
                .and()
                .doNotHaveSimpleName("package-info")
                .should()
                .beAnnotatedWith(PublicEvolving.class)
                .check(CLASSES);
        classes()
                .that()
                .resideInAnyPackage(INTERNAL.toArray(String[]::new))
                .and()
                .areTopLevelClasses()
                .and()
                .doNotHaveSimpleName("package-info")
                .should()
                .beAnnotatedWith(Internal.class)
                .check(CLASSES);
    }

    @Test
    void publicApiSignaturesNeverMentionInternalTypes() {
        methods()
                .that()
                .areDeclaredInClassesThat()
                .areAnnotatedWith(PublicEvolving.class)
                .and()
                .arePublic()
                .and()
                .areNotAnnotatedWith(Internal.class)
                .should(new ArchCondition<>("not take or return types of the connector's internal packages") {
                    @Override
                    public void check(JavaMethod method, ConditionEvents events) {
                        if (implementsAnInterfaceMethod(method)) {
                            return; // Flink's Source interface names the split and checkpoint types
                        }
                        Stream.concat(Stream.of(method.getRawReturnType()), method.getRawParameterTypes().stream())
                                .filter(type -> INTERNAL.stream()
                                        .anyMatch(
                                                p -> type.getPackageName().startsWith(p.substring(0, p.length() - 2))))
                                .forEach(type -> events.add(SimpleConditionEvent.violated(
                                        method, method.getFullName() + " mentions internal type " + type.getName())));
                    }
                })
                .check(CLASSES);
    }

    /**
     * Every package of every shipped module declares its nullness (JSpecify's {@code @NullMarked}):
     * unannotated types are non-null, and what may be null says {@code @Nullable}. The benchmark
     * harnesses are not shipped.
     */
    @Test
    void everyShippedPackageIsNullMarked() {
        classes()
                .that()
                .resideOutsideOfPackages("io.streamsplit.benchmarks..")
                .and()
                .areTopLevelClasses()
                .and()
                .doNotHaveSimpleName("package-info")
                .should(new ArchCondition<>("reside in a @NullMarked package") {
                    @Override
                    public void check(JavaClass type, ConditionEvents events) {
                        boolean marked = type.getPackage()
                                .tryGetPackageInfo()
                                .map(info -> info.isAnnotatedWith(NullMarked.class))
                                .orElse(false);
                        if (!marked) {
                            events.add(SimpleConditionEvent.violated(
                                    type, type.getPackageName() + " has no @NullMarked package-info"));
                        }
                    }
                })
                .check(CLASSES);
    }

    @Test
    void noMainPackageHoldsMoreThanFifteenTypes() {
        Map<String, Long> perPackage = CLASSES.stream()
                .filter(JavaClass::isTopLevelClass)
                .filter(c -> !c.getSimpleName().equals("package-info"))
                .collect(Collectors.groupingBy(JavaClass::getPackageName, TreeMap::new, Collectors.counting()));
        assertThat(perPackage)
                .as("top-level types per package")
                .allSatisfy((pkg, count) -> assertThat(count).as(pkg).isLessThanOrEqualTo(15));
    }

    private static boolean implementsAnInterfaceMethod(JavaMethod method) {
        return method.getOwner().getAllRawInterfaces().stream()
                .flatMap(i -> i.getMethods().stream())
                .anyMatch(m -> m.getName().equals(method.getName())
                        && m.getRawParameterTypes().size()
                                == method.getRawParameterTypes().size());
    }
}
